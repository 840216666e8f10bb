import { hostname } from 'node:os';
import type { Config } from '../config/schema.ts';

/**
 * The dashboard's address for links in notifications: config `notifications.publicUrl`, else the Pi's
 * mDNS name (Raspberry Pi OS runs avahi, so `<hostname>.local` resolves on the LAN and on phones), over
 * HTTPS when it is on (docs/https.md): a tap then opens the installed dashboard, which lives there.
 */
export function publicUrlOf(config: Pick<Config, 'notifications' | 'port'> & { https?: Pick<Config['https'], 'port'> }): string {
  if (config.notifications.publicUrl) return config.notifications.publicUrl;
  const httpsPort = config.https?.port;
  if (httpsPort) return `https://${hostname()}.local${httpsPort === 443 ? '' : `:${httpsPort}`}`;
  return `http://${hostname()}.local${config.port === 80 ? '' : `:${config.port}`}`;
}
