import { isIP } from 'node:net';
import { allowedHostNames } from './host-allow-list.ts';

/**
 * The names the gateway's own certificate covers (docs/https.md): its host name and `<name>.local`,
 * every address of its interfaces, localhost, config `allowedHosts` and `https.hostNames`. Wildcard
 * listen addresses and IPv6 link-local addresses (only meaningful with a zone) are left out, and so
 * is anything that is not a valid DNS name. Sorted, so two lists compare as they are.
 */
export function certificateNames(options: { listenHost: string; allowedHosts: readonly string[]; hostNames: readonly string[] }): string[] {
  const all = allowedHostNames({ listenHost: options.listenHost, allowedHosts: [...options.allowedHosts, ...options.hostNames] });
  return [...all]
    .filter((name) => {
      if (name === '0.0.0.0' || name === '::') return false;
      const ipVersion = isIP(name);
      if (ipVersion === 6) return !/^fe[89ab]/i.test(name);
      if (ipVersion === 4) return true;
      return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name) && name.length <= 253;
    })
    .sort();
}
