/** Debian's Chromium (never a downloaded build), driven by playwright-core; tests skip with one line where it is absent. */
export const CHROMIUM = '/usr/bin/chromium';

// Chromium's own connections to Google's hosts are refused on a closed network: turn them off.
// Playwright gives each launch a fresh temporary profile (its own --user-data-dir), removed on close.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
