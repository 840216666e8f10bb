/**
 * Debian's Chromium as the browser tests and the Lighthouse bench start it (docs/decisions.md
 * "Toolchain facts"): as root it needs --no-sandbox; the rest keep it off this machine's closed network.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
