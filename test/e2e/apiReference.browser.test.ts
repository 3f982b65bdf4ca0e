import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium';

/**
 * The interactive API reference at /docs in Debian's headless Chromium: the
 * page renders /v1/openapi.json with every /v1 operation on it, loads
 * nothing from another origin, breaks no CSP rule, and "Try it out" with an
 * API key entered through **Authorize** calls this service and shows its
 * answer. Skips, with one line, where Chromium is absent.
 */
let srv: TestServer;
let acct: TestAccount;
let browser: Browser | undefined;
let page: Page;
const problems: string[] = [];

if (existsSync(CHROMIUM)) {
  beforeAll(async () => {
    srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
    acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (!['data:', 'blob:'].includes(u.protocol) && u.host !== new URL(srv.url).host) problems.push(`outside request: ${r.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await srv?.stop();
  });

  test('behavior: /docs lists every /v1 operation, and Try it out with a key answers from the service', async () => {
    const doc = (await srv.rest('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, id: op.operationId })));
    expect(operations.length).toBeGreaterThan(10);

    await page.goto(`${srv.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    // Every operation of the document is on the page, by method and path.
    const shown = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    expect(shown.sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort());

    // Authorize with the API key (the bearer scheme), then try GET /yields.
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    const dialog = page.locator('.modal-ux');
    await dialog.waitFor();
    const bearer = dialog.locator('.auth-container').filter({ has: page.locator('h4 code', { hasText: /^apiKey$/ }) });
    await bearer.locator('#auth-bearer-value').fill(acct.key);
    await bearer.getByRole('button', { name: 'Apply credentials' }).click();
    await bearer.locator('button', { hasText: 'Logout' }).waitFor();
    await dialog.locator('.close-modal').click();

    const yields = page.locator('.opblock', { has: page.locator('[data-path="/yields"]') });
    await yields.locator('.opblock-summary').click();
    const execute = yields.getByRole('button', { name: 'Execute' });
    if (!(await execute.isVisible())) await yields.getByRole('button', { name: 'Try it out' }).click();
    await execute.click();
    const answer = yields.locator('.responses-wrapper .live-responses-table');
    await answer.waitFor({ timeout: 30_000 });
    await expect(answer.locator('tbody .response-col_status').first().innerText()).resolves.toContain('200');
    const body = await answer.locator('tbody .response-col_description pre').first().innerText();
    expect(JSON.parse(body)).toMatchObject({ rates: expect.any(Array), best: { apy: expect.any(Number) } });

    // The request went to this service with the key: the account's credits moved.
    const usage = await srv.rest('GET', '/v1/usage', { key: acct.key });
    expect(usage.body.credits.used).toBe(1);
    expect(problems).toEqual([]);
  }, 120_000);
} else {
  console.log("skipped: API reference browser test (install Debian's chromium)");
  describe('API reference in headless Chromium', () => {
    test.skip(`runs only where ${CHROMIUM} exists`, () => undefined);
  });
}
