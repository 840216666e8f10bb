import type { DeviceSettings } from '../contract/settings.ts';
import { invalid } from '../domain/errors.ts';

type Changes = { [K in keyof DeviceSettings]?: unknown };

/**
 * What the schema cannot say about the device safety settings: the merged result of a partial update,
 * field against field (docs/decisions.md, Run budgets). Each refusal is a 400 naming the field; of two
 * fields that clash, the one the caller sent (the other is the stored value it collides with). A pair is
 * checked when the change sets one of its fields, so settings stored by an older release never block a
 * change elsewhere (a heater cut-off in a hurry).
 */
export function checkDeviceSettings(merged: DeviceSettings, changes: Changes): void {
  const { pumpMaxRunSeconds, pumpRunWindowMinutes } = merged;
  const touched = (a: keyof DeviceSettings, b: keyof DeviceSettings) => changes[a] !== undefined || changes[b] !== undefined;
  const name = (field: keyof DeviceSettings, other: keyof DeviceSettings) => `deviceSettings.${changes[field] !== undefined ? field : other}`;

  // A budget as long as its window allows running without a pause: no budget at all.
  const windowSeconds = pumpRunWindowMinutes * 60;
  if (touched('pumpMaxRunSeconds', 'pumpRunWindowMinutes') && pumpMaxRunSeconds >= windowSeconds) {
    throw invalid(
      `deviceSettings.pumpMaxRunSeconds (${pumpMaxRunSeconds}) must be below the length of its window deviceSettings.pumpRunWindowMinutes (${pumpRunWindowMinutes} min = ${windowSeconds} s): a pump may run that long in any such window`,
      name('pumpMaxRunSeconds', 'pumpRunWindowMinutes'),
    );
  }
}
