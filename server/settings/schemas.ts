import Type, { type TSchema } from 'typebox';
import { QUANTITIES } from '../../common/catalogue.ts';
import { Envelope } from '../contract/common.ts';
import { AlertThresholds, DeviceSettings, Settings, SystemSettings } from '../contract/settings.ts';

const strictObject = (properties: Record<string, TSchema>) => Type.Object(properties, { additionalProperties: false });
// Built field by field: Type.Partial drops `additionalProperties` from the object it copies.
const strictPartial = (properties: Record<string, TSchema>) =>
  Type.Object(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, Type.Optional(value)])),
    { additionalProperties: false },
  );
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

/**
 * Every group and every field optional (a partial update), unknown keys refused at every level.
 * Nested groups (threshold groups, device deadbands) are partial as well.
 */
function partialGroups(properties: Record<string, TSchema>) {
  return strictPartial(
    Object.fromEntries(
      Object.entries(properties).map(([key, value]) => [
        key,
        'properties' in (value as object) ? strictPartial((value as unknown as { properties: Record<string, TSchema> }).properties) : value,
      ]),
    ),
  );
}

// The contract leaves air temperature unbounded; a threshold outside what any greenhouse sensor can
// report (the catalogue's range) is a typo, not a setting.
const { minimum, maximum } = QUANTITIES.temperatureC.thresholds;
const TemperatureThreshold = nullable(Type.Number({ minimum, maximum }));

export const ThresholdsBody = strictObject({
  alertThresholds: partialGroups({
    ...AlertThresholds.properties,
    temperature: Type.Object({ high: TemperatureThreshold, low: TemperatureThreshold }),
  }),
});
export const SystemBody = strictObject({ systemSettings: strictPartial(SystemSettings.properties) });
export const DevicesBody = strictObject({ deviceSettings: partialGroups(DeviceSettings.properties) });
export const SettingsReply = Envelope(Settings);
