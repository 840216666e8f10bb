import { invalid } from '../domain/errors.ts';

/**
 * Refuses a subscription whose endpoint is not an https URL at one of the allowed push services
 * (config webPush.endpointHosts; `*.example.com` matches its subdomains): the gateway POSTs to the
 * endpoint, and any signed-in account may subscribe.
 */
export function checkEndpoint(endpoint: string, allowedHosts: readonly string[]): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid('endpoint must be a URL', 'endpoint');
  }
  if (url.protocol !== 'https:') throw invalid('endpoint must be an https URL', 'endpoint');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowedHosts.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p;
  });
  if (!allowed) throw invalid(`endpoint: ${host} is not a known push service (config webPush.endpointHosts)`, 'endpoint');
}
