import type { AllSensorsUpdate, SensorSnapshot, SensorType } from '../contract/reading.ts';
import { climateMetrics } from '../sensors/climate-metrics.ts';

/** A quantity the gateway measures, as a Home Assistant sensor reads it from `sensors/state`. */
export interface Quantity {
  /** The key in the `sensors/state` JSON. */
  field: string;
  objectId: string;
  name: string;
  deviceClass: string;
  unit: string;
  /** Derived from temperature and humidity (VPD, dew point): announced once it has a value. */
  derived: boolean;
  /** Prometheus metric name, unit in the name (prometheus.io, Metric and label naming). */
  metric: string;
  /** The sensor it comes from (the metric's `sensor` label). */
  sensorType: SensorType;
}

/**
 * One list for Home Assistant (device classes and units from developers.home-assistant.io, Sensor
 * entity) and Prometheus (metric names with their unit).
 */
export const QUANTITIES: readonly Quantity[] = [
  { field: 'temperature', sensorType: 'DHT11', metric: 'greenhouse_temperature_celsius', objectId: 'temperature', name: 'Temperature', deviceClass: 'temperature', unit: '°C', derived: false },
  { field: 'humidity', sensorType: 'DHT11', metric: 'greenhouse_humidity_percent', objectId: 'humidity', name: 'Humidity', deviceClass: 'humidity', unit: '%', derived: false },
  { field: 'lightIntensity', sensorType: 'LDR', metric: 'greenhouse_light_lux', objectId: 'light_intensity', name: 'Light', deviceClass: 'illuminance', unit: 'lx', derived: false },
  { field: 'soilMoisture', sensorType: 'SOIL_MOISTURE', metric: 'greenhouse_soil_moisture_percent', objectId: 'soil_moisture', name: 'Soil moisture', deviceClass: 'moisture', unit: '%', derived: false },
  { field: 'waterLevel', sensorType: 'WATER_LEVEL', metric: 'greenhouse_water_level_centimeters', objectId: 'water_level', name: 'Water tank level', deviceClass: 'distance', unit: 'cm', derived: false },
  { field: 'vpdKpa', sensorType: 'DHT11', metric: 'greenhouse_vpd_kilopascals', objectId: 'vpd', name: 'Vapour-pressure deficit', deviceClass: 'pressure', unit: 'kPa', derived: true },
  { field: 'dewPointC', sensorType: 'DHT11', metric: 'greenhouse_dew_point_celsius', objectId: 'dew_point', name: 'Dew point', deviceClass: 'temperature', unit: '°C', derived: true },
];

export const DERIVED_FIELDS: readonly string[] = QUANTITIES.filter((q) => q.derived).map((q) => q.field);

/**
 * The `sensors/state` payload: the allSensorsUpdate values (design.md, Fleet), VPD and dew point
 * derived from the newest temperature and humidity as the realtime bridge derives them.
 */
export function sensorsState(greenhouseId: string, snapshot: SensorSnapshot): AllSensorsUpdate {
  const { values } = snapshot;
  const metrics = climateMetrics(values.temperature, values.humidity);
  return {
    greenhouseId,
    temperature: values.temperature,
    humidity: values.humidity,
    soilMoisture: values.soilMoisture,
    lightIntensity: values.lightIntensity,
    waterLevel: values.waterLevel,
    vpdKpa: metrics.vpdKpa ?? null,
    dewPointC: metrics.dewPointC ?? null,
    timestamp: snapshot.takenAt,
  };
}
