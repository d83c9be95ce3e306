import { AddressInfo } from 'node:net';
import { Browser, chromium, Page } from 'playwright-core';
import request from 'supertest';
import { TEST_ADMIN_PASSWORD } from './helpers/constants';
import { createTestApp, TestApp } from './helpers/test-app';

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

  it('says why a sign-in was refused', async () => {
    await page.goto(`${base}/console/`);
    await page.getByLabel('User').fill('admin');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/user or password/i);
  });
});
