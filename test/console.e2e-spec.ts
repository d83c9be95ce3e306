import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Page } from 'playwright-core';
import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { ConsolePage, consoleSuite } from './helpers/console-browser';
import { seedAdmin } from './helpers/test-app';

/**
 * The console in a real browser, on the real server: it uses only the public API, with
 * the session cookie the browser keeps and the CSRF header on writes.
 */
describe('the console', () => {
  const suite = consoleSuite();
  let ui: ConsolePage;
  let page: Page;

  beforeEach(async () => {
    ui = new ConsolePage(await suite.browser.newPage(), suite.base);
    page = ui.page;
  });
  afterEach(() => page.close());

  it('is where / leads, under a Content-Security-Policy of self with no inline script', async () => {
    await request(suite.t.http).get('/').expect(302).expect('Location', '/console/');
    const response = await request(suite.t.http).get('/console/').expect(200);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(response.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('keeps its JavaScript under 400 KB gzip in all', () => {
    const assets = join(__dirname, '..', 'console', 'dist', 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce(
      (sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length,
      0,
    );
    expect(gzipped).toBeLessThan(400 * 1024);
  });

  it('signs in, shows the user and a link per entity type, lists records, and signs out', async () => {
    await ui.signIn('admin', TEST_ADMIN_PASSWORD, '/');
    await ui.open('Customer account');
    const table = page.getByRole('table');
    await expect(
      table.getByRole('columnheader', { name: 'Name', exact: true }).count(),
    ).resolves.toBe(1);
    await page.getByRole('row').nth(1).waitFor();
    for (const name of ['FETCH', 'Workflows', 'Files', 'API keys', 'Access']) {
      expect(await ui.nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    // The session cookie is not the page's to read.
    const cookies = await page.evaluate('document.cookie');
    expect(cookies).not.toContain('svc.rest.auth.token');

    await ui.button('Sign out').click();
    await ui.button('Sign in').waitFor();
    await page.reload();
    await ui.button('Sign in').waitFor();
    expect(ui.unexpectedErrors()).toEqual([]);
  });

  it('filters a list, sorts it by a column both ways, and says how many records match', async () => {
    const { key } = await seedAdmin(suite.t);
    const prefix = `Console ${randomUUID()}`;
    // Created in neither order of their names: newest first, ascending and descending are
    // three different orders, each with a row of its own first.
    for (const suffix of ['A', 'C', 'B']) {
      await request(suite.t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name: `${prefix} ${suffix}` } })
        .expect(200);
    }
    await ui.signIn();
    await ui.open('Customer account');
    await page.getByRole('searchbox', { name: 'Filter' }).fill(prefix);
    await page.getByRole('searchbox', { name: 'Filter' }).press('Enter');
    await page.getByText('3 records', { exact: true }).waitFor();
    const names = () => ui.bodyRows().locator('td:nth-child(2)').allTextContents();
    const expectOrder = async (order: string[]) => {
      // The header turns before the rows of the new order arrive: first wait (a while) for
      // the row that comes first in it, then compare them all.
      await ui
        .bodyRows()
        .first()
        .getByText(`${prefix} ${order[0]}`, { exact: true })
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
      await expect(names()).resolves.toEqual(order.map((suffix) => `${prefix} ${suffix}`));
    };
    // Newest first until a column is chosen.
    await expectOrder(['B', 'C', 'A']);
    const header = page.getByRole('columnheader', { name: 'Name', exact: true });
    await header.getByRole('button').click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    await expectOrder(['A', 'B', 'C']);
    await header.getByRole('button').click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    await expectOrder(['C', 'B', 'A']);
  });

  it('pages a long list by keyset with "Load more"', async () => {
    await ui.signIn();
    await ui.open('Invoice');
    await page.getByText(/^\d+ records$/).waitFor();
    await expect(ui.bodyRows().count()).resolves.toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await ui.bodyRows().nth(99).waitFor();
    const keys = await ui.bodyRows().locator('td:first-child').allTextContents();
    expect(new Set(keys).size).toBe(100);
    expect(keys.map(Number)).toEqual([...keys.map(Number)].sort((a, b) => b - a));
  });

  it('marks a FETCH error where it is as one types, runs a query, pages it and shows its tree', async () => {
    await ui.signIn();
    await ui.open('FETCH');
    await ui.typeQuery('FETCH invoice (number total)');
    await page.locator('.cm-lint-marker-error').waitFor();
    const detail = 'line 1, column 23: expected "AS", "," or ")" but found "total"';
    await page.locator('.cm-lintRange-error').hover();
    await expect(page.locator('.cm-tooltip-lint').textContent()).resolves.toBe(detail);
    // The text is shown under the editor too, not only as a mark, and takes the cursor
    // there: what is typed next goes where the problem is.
    await page.getByRole('status').getByRole('button', { name: detail }).click();
    await page.keyboard.type(',');
    await expect(page.locator('.cm-content').textContent()).resolves.toBe(
      'FETCH invoice (number ,total)',
    );
    await page.locator('.cm-lint-marker-error').waitFor({ state: 'detached' });
    await expect(page.getByRole('status').count()).resolves.toBe(0);

    await ui.typeQuery('FETCH invoice (key, number, total) ORDER BY key ASC LIMIT 10');
    await page.locator('.cm-lint-marker-error').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText(/^10 rows, \d+ in all/).waitFor();
    await expect(page.getByRole('columnheader').allTextContents()).resolves.toEqual([
      'key',
      'number',
      'total',
    ]);
    const { before, after } = await ui.nextFetchPage();
    expect(after[0]).toBeGreaterThan(before[before.length - 1]);
    expect(after).toHaveLength(10);
    const tree = await page.getByRole('complementary', { name: 'Parsed tree' }).textContent();
    expect(JSON.parse(tree!)).toMatchObject({ entity: 'invoice', limit: 10 });
  });

  it('says why a sign-in was refused', async () => {
    await page.goto(`${suite.base}/console/`);
    await page.getByLabel('User').fill('admin');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/user or password/i);
  });
});
