import type { AdsLdrInstanceOptions, AdsSoilInstanceOptions } from '../options.ts';
import { AdsLightSensor, AdsSoilSensor, type Ads1115 } from './ads1115.ts';
import { luxFromRaw, soilPercentFromRaw } from './ads1115-convert.ts';
import type { Reprobe } from './reprobe.ts';

/**
 * An LDR or soil-probe instance on an ADS1115 that may come and go: each read goes through the Reprobe,
 * so it fails with "not found ... probed again in N s" while the chip is missing and counts a bus error
 * when a transfer fails. The conversion (calibration, curve) is checked once, here, at start.
 */
export function reprobedAdsChannel(
  adc: Reprobe<Ads1115>,
  o: AdsLdrInstanceOptions | AdsSoilInstanceOptions,
  /** Told each raw count read (calibration shows it live). */
  onRaw?: (raw: number) => void,
): () => Promise<number> {
  type Channel = { read(): Promise<number> };
  const on = (device: Ads1115): Channel => {
    if (o.kind === 'ADS1115_LDR') {
      const light = new AdsLightSensor({ adc: device, channel: o.channel, curve: o.lightCurve, onRaw });
      return { read: () => light.readLux() };
    }
    const soil = new AdsSoilSensor({ adc: device, channel: o.channel, calibration: { dryRaw: o.dryRaw, wetRaw: o.wetRaw }, onRaw });
    return { read: () => soil.readPercent() };
  };
  // Fail at start on a bad calibration, not at the first read.
  if (o.kind === 'ADS1115_LDR') luxFromRaw(0, o.lightCurve);
  else soilPercentFromRaw(0, { dryRaw: o.dryRaw, wetRaw: o.wetRaw });
  // Built once per device (cheap, but it validates the calibration again for each new device).
  let built: { device: Ads1115; channel: Channel } | null = null;
  return () =>
    adc.read(o.sensorId, (device) => {
      if (built?.device !== device) built = { device, channel: on(device) };
      return built.channel.read();
    });
}
