import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { createTestApp, seedAdmin, TestApp } from './helpers/test-app';

/** Debian's Chromium (.ci/run installs it when missing). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The console in a real browser, on the real server: it uses only the public API, with
 * the session cookie the browser keeps and the CSRF header on writes.
 */
describe('the console', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
  });
  afterEach(() => page.close());

  it('is where / leads, under a Content-Security-Policy of self with no inline script', async () => {
    await request(t.http).get('/').expect(302).expect('Location', '/console/');
    const response = await request(t.http).get('/console/').expect(200);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(response.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('signs in, shows the user and a link per entity type, lists records, and signs out', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${base}/`);
    await page.getByLabel('User').fill('admin');
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    const nav = page.getByRole('navigation');
    await nav.getByRole('link', { name: 'Customer account', exact: true }).click();
    const table = page.getByRole('table');
    await expect(
      table.getByRole('columnheader', { name: 'Name', exact: true }).count(),
    ).resolves.toBe(1);
    await page.getByRole('row').nth(1).waitFor();
    for (const name of ['FETCH', 'Workflows', 'Files', 'API keys']) {
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    // The session cookie is not the page's to read.
    const cookies = await page.evaluate('document.cookie');
    expect(cookies).not.toContain('svc.rest.auth.token');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  const signIn = async () => {
    await page.goto(`${base}/console/`);
    await page.getByLabel('User').fill('admin');
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const open = (label: string) =>
    page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
  const bodyRows = () => page.getByRole('table').locator('tbody tr');

  it('filters a list, sorts it by a column both ways, and says how many records match', async () => {
    const { key } = await seedAdmin(t);
    const prefix = `Console ${randomUUID()}`;
    for (const suffix of ['B', 'A']) {
      await request(t.http)
        .post('/rest/entity/account')
        .set('X-API-Key', key)
        .send({ properties: { name: `${prefix} ${suffix}` } })
        .expect(200);
    }
    await signIn();
    await open('Customer account');
    await page.getByRole('searchbox', { name: 'Filter' }).fill(prefix);
    await page.getByRole('searchbox', { name: 'Filter' }).press('Enter');
    await page.getByText('2 records').waitFor();
    const names = () => bodyRows().locator('td:nth-child(2)').allTextContents();
    // Newest first until a column is chosen.
    await expect(names()).resolves.toEqual([`${prefix} A`, `${prefix} B`]);
    const header = page.getByRole('columnheader', { name: 'Name', exact: true });
    await header.getByRole('button').click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    await expect(names()).resolves.toEqual([`${prefix} A`, `${prefix} B`]);
    await header.getByRole('button').click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    await expect(names()).resolves.toEqual([`${prefix} B`, `${prefix} A`]);
  });

  it('pages a long list by keyset with "Load more"', async () => {
    await signIn();
    await open('Invoice');
    await page.getByText(/^\d+ records$/).waitFor();
    await expect(bodyRows().count()).resolves.toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await bodyRows().nth(99).waitFor();
    const keys = await bodyRows().locator('td:first-child').allTextContents();
    expect(new Set(keys).size).toBe(100);
    expect(keys.map(Number)).toEqual([...keys.map(Number)].sort((a, b) => b - a));
  });

  it('says why a sign-in was refused', async () => {
    await page.goto(`${base}/console/`);
    await page.getByLabel('User').fill('admin');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/user or password/i);
  });
});
