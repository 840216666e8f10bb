import type { QuantityKey } from '../../../common/catalogue.ts';
import type { OutputOptions, SensorInstanceOptions } from '../../../drivers/options.ts';
import type { Hardware } from '../../../drivers/types.ts';

/** The config defaults of server/config/schema.ts as the four instances they become, as driver options. */
export const sensors: SensorInstanceOptions[] = [
  { sensorId: 'dht11', kind: 'DHT11', name: 'Air (DHT11)', pin: 4 },
  {
    sensorId: 'ldr',
    kind: 'ADS1115_LDR',
    name: 'Light (LDR)',
    bus: 1,
    address: 0x48,
    channel: 0,
    lightCurve: [
      [1000, 1],
      [8000, 100],
      [16000, 1000],
      [24000, 10000],
      [30000, 60000],
    ],
  },
  { sensorId: 'soil', kind: 'ADS1115_SOIL', name: 'Soil probe', bus: 1, address: 0x48, channel: 1, dryRaw: 17500, wetRaw: 7500 },
  { sensorId: 'tank', kind: 'HCSR04', name: 'Tank (HC-SR04)', triggerPin: 23, echoPin: 24, tankDepthCm: 100 },
];

/** The instance of `hw` with this sensorId, or undefined when it could not be opened. */
export const sensorOf = (hw: Pick<Hardware, 'sensors'>, sensorId: string) => hw.sensors.find((s) => s.sensorId === sensorId);

/** One read of one quantity from the instance `sensorId` of `hw`. */
export async function readOne(hw: Pick<Hardware, 'sensors'>, sensorId: string, q: QuantityKey): Promise<number> {
  const values = await sensorOf(hw, sensorId)!.read();
  return values[q]!;
}

const pulses = { openPulseUs: 2000, closedPulseUs: 1000 };
export const outputs: OutputOptions[] = [
  { outputId: 'relay-1', kind: 'relay', pin: 17, activeLow: true, ...pulses, device: { deviceId: 'pump-1', deviceName: 'Irrigation Pump', deviceType: 'WATER_PUMP', powerW: 45 } },
  { outputId: 'relay-2', kind: 'relay', pin: 27, activeLow: true, ...pulses, device: { deviceId: 'fan-1', deviceName: 'Ventilation Fan', deviceType: 'FAN', powerW: 60 } },
  { outputId: 'relay-3', kind: 'relay', pin: 22, activeLow: true, ...pulses, device: { deviceId: 'light-1', deviceName: 'LED Grow Light', deviceType: 'LED_LIGHT', powerW: 150 } },
  { outputId: 'relay-4', kind: 'relay', pin: 5, activeLow: true, ...pulses, device: { deviceId: 'heater-1', deviceName: 'Heater', deviceType: 'HEATER', powerW: 800 } },
  { outputId: 'relay-5', kind: 'relay', pin: 6, activeLow: true, ...pulses, device: { deviceId: 'cooling-1', deviceName: 'Evaporative Cooler', deviceType: 'COOLING_SYSTEM', powerW: 250 } },
  { outputId: 'servo-1', kind: 'servo', pin: 18, activeLow: false, ...pulses, device: { deviceId: 'window-1', deviceName: 'Roof Window', deviceType: 'SERVO', powerW: 5 } },
  { outputId: 'relay-6', kind: 'relay', pin: 13, activeLow: false, ...pulses },
];
