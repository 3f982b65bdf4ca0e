import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

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

/** What a page test listens to: console errors, page errors and requests outside the service (`problems`), answers of 400 and above (`failed`). */
export function watchPage(
  page: { on(event: string, listener: (arg: any) => void): unknown },
  serviceUrl: () => string,
  problems: string[],
  failed: string[],
): void {
  // Failed loads are read from the answers themselves (with their URL), not from the console's line about them.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.host !== new URL(serviceUrl()).host) problems.push(`outside request: ${r.url()}`);
  });
}

const ROOT = join(__dirname, '..', '..');

/** Builds the dashboard the service serves (vite, production), as `npm run build` would. */
export function buildDashboard(): void {
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'error'],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

/** Signs in to the dashboard at `serviceUrl` as `email` through the development provider's page; resolves on the first page (API keys). */
export async function signInToDashboard(page: Page, serviceUrl: string, email: string): Promise<void> {
  await page.goto(`${serviceUrl}/dashboard/`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
}
