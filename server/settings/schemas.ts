import Type from 'typebox';
import { Envelope } from '../contract/common.ts';
import { AlertThresholds, DeviceSettings, Settings, SystemSettings } from '../contract/settings.ts';

const partialGroups = <T extends typeof AlertThresholds | typeof DeviceSettings>(schema: T) =>
  Type.Partial(
    Type.Object(
      Object.fromEntries(
        Object.entries(schema.properties).map(([key, value]) => [
          key,
          'properties' in (value as object) ? Type.Partial(value as ReturnType<typeof Type.Object>) : value,
        ]),
      ),
      { additionalProperties: false },
    ),
  );

export const ThresholdsBody = Type.Object({ alertThresholds: partialGroups(AlertThresholds) });
export const SystemBody = Type.Object({
  systemSettings: Type.Partial(Type.Object(SystemSettings.properties, { additionalProperties: false })),
});
export const DevicesBody = Type.Object({ deviceSettings: partialGroups(DeviceSettings) });
export const SettingsReply = Envelope(Settings);
