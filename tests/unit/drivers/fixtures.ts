import type { OutputOptions, SensorsOptions } from '../../../drivers/options.ts';

/** The config defaults of server/config/schema.ts, restated as driver options. */
export const sensors: SensorsOptions = {
  dht11: { pin: 4 },
  ads1115: {
    bus: 1,
    address: 0x48,
    ldrChannel: 0,
    soilChannel: 1,
    soilDryRaw: 17500,
    soilWetRaw: 7500,
    lightCurve: [
      [1000, 1],
      [8000, 100],
      [16000, 1000],
      [24000, 10000],
      [30000, 60000],
    ],
  },
  hcsr04: { triggerPin: 23, echoPin: 24, tankDepthCm: 100 },
};

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
