import type { SensorsOptions } from '../options.ts';
import type { LightSensor, SoilMoistureSensor } from '../types.ts';
import { AdsLightSensor, AdsSoilSensor, type Ads1115 } from './ads1115.ts';
import { luxFromRaw, soilPercentFromRaw } from './ads1115-convert.ts';
import type { Reprobe } from './reprobe.ts';

/**
 * The LDR and the soil probe on an ADS1115 that may come and go: each read goes through the Reprobe,
 * so it fails with "not found ... probed again in N s" while the chip is missing and counts a bus error
 * when a transfer fails. The conversions (calibration, curve) are checked once, here, at start.
 */
export function reprobedAdsSensors(adc: Reprobe<Ads1115>, ads: SensorsOptions['ads1115']): { light: LightSensor; soil: SoilMoistureSensor } {
  const lightOn = (device: Ads1115) => new AdsLightSensor({ adc: device, channel: ads.ldrChannel, curve: ads.lightCurve });
  const soilOn = (device: Ads1115) => new AdsSoilSensor({ adc: device, channel: ads.soilChannel, calibration: { dryRaw: ads.soilDryRaw, wetRaw: ads.soilWetRaw } });
  // Built once per device (cheap, but it validates the calibration: a bad one fails at start, not later).
  let lightFor: { device: Ads1115; sensor: AdsLightSensor } | null = null;
  let soilFor: { device: Ads1115; sensor: AdsSoilSensor } | null = null;
  luxFromRaw(0, ads.lightCurve);
  soilPercentFromRaw(0, { dryRaw: ads.soilDryRaw, wetRaw: ads.soilWetRaw });
  return {
    light: {
      readLux: () =>
        adc.read('light', (device) => {
          if (lightFor?.device !== device) lightFor = { device, sensor: lightOn(device) };
          return lightFor.sensor.readLux();
        }),
    },
    soil: {
      readPercent: () =>
        adc.read('soil', (device) => {
          if (soilFor?.device !== device) soilFor = { device, sensor: soilOn(device) };
          return soilFor.sensor.readPercent();
        }),
    },
  };
}
