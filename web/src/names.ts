// Friendly names for the codes the gateway uses (a grower reads "Soil moisture probe",
// not SOIL_MOISTURE). The codes stay in the wire contract; only the screen text changes.
import type { DeviceType } from '../../server/contract/device.ts';
import type { SensorType } from '../../server/contract/reading.ts';

const SENSOR_NAMES: Record<SensorType, string> = {
  DHT11: 'Air temperature & humidity',
  LDR: 'Light sensor',
  SOIL_MOISTURE: 'Soil moisture probe',
  WATER_LEVEL: 'Water tank level',
};

const DEVICE_TYPE_NAMES: Record<string, string> = {
  FAN: 'Ventilation fan',
  WATER_PUMP: 'Water pump',
  LED_LIGHT: 'LED grow light',
  HEATER: 'Heater',
  COOLING_SYSTEM: 'Cooling system',
  SERVO: 'Roof window',
};

export const isSensorType = (code: string): code is SensorType => code in SENSOR_NAMES;

/** 'SOIL_MOISTURE' -> 'Soil moisture probe'; an unknown code falls back to words ('NEW_THING' -> 'New thing'). */
export function sensorName(code: SensorType | string): string {
  return SENSOR_NAMES[code as SensorType] ?? words(code);
}

export function deviceTypeName(code: DeviceType | string): string {
  return DEVICE_TYPE_NAMES[code] ?? words(code);
}

function words(code: string): string {
  const text = code.replace(/_/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
