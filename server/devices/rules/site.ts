import type { AutomationRules } from '../../contract/device.ts';
import type { SystemSettings } from '../../contract/settings.ts';
import type { Config } from '../../config/schema.ts';
import { invalid } from '../../domain/errors.ts';
import { usesSun, type Site } from './schedule.ts';

/** Config `site` when both coordinates are set: the default of systemSettings.site. */
export function siteOf(config: Pick<Config, 'site'>): Site | null {
  const { latitude, longitude } = config.site;
  return latitude === undefined || longitude === undefined ? null : { latitude, longitude };
}

/** The site now (systemSettings.site, changed from Settings and applied at once, no restart). */
export const liveSite = (systemSettings: () => SystemSettings) => (): Site | null => systemSettings().site;

/** Refuses (400 naming the field) a sunrise/sunset schedule on a gateway that does not know where it stands. */
export function scheduleChecker(site: () => Site | null) {
  return (schedule: NonNullable<AutomationRules['schedule']>): void => {
    if (site() || !usesSun(schedule)) return;
    throw invalid(
      'automationRules.schedule uses sunrise/sunset, which needs systemSettings.site.latitude and .longitude (Settings > System); use HH:MM times or set the site',
      'automationRules.schedule',
    );
  };
}
