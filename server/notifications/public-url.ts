import { hostname } from 'node:os';
import type { Config } from '../config/schema.ts';

/**
 * The dashboard's address for links in notifications: config `notifications.publicUrl`, else the Pi's
 * mDNS name (Raspberry Pi OS runs avahi, so `<hostname>.local` resolves on the LAN and on phones).
 */
export function publicUrlOf(config: Pick<Config, 'notifications' | 'port'>): string {
  return config.notifications.publicUrl ?? `http://${hostname()}.local${config.port === 80 ? '' : `:${config.port}`}`;
}
