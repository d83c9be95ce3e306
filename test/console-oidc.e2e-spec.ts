import { Browser } from 'playwright-core';
import request from 'supertest';
import { ConsolePage, launchChromium } from './helpers/console-browser';
import { freePort } from './helpers/free-port';
import { TestProvider } from './helpers/oidc-provider';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * Signing in to the console with an OpenID provider (a real one, on loopback): its button
 * leads through the provider's own login and consent pages, and back to a console that
 * holds a session and can write with it (the CSRF token comes from GET /auth).
 */
describe('the console with an OpenID provider', () => {
  let provider: TestProvider;
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await TestProvider.start({ appCallback: `${base}/oauth/test` });
    t = await createTestApp({
      PUBLIC_URL: base,
      OIDC_PROVIDERS: JSON.stringify([provider.entry([`${base}/console/`])]),
    });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await provider?.close();
  });

  it('signs in through the provider and comes back able to write', async () => {
    const ui = new ConsolePage(await browser.newPage(), base);
    const { page } = ui;
    await page.goto(`${base}/console/`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    // The provider's own pages: its login form, then its consent.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('ada');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page
      .locator('button[type="submit"]')
      .filter({ hasText: /continue/i })
      .click();

    await ui.nav.waitFor();
    expect(page.url()).toBe(`${base}/console/`);
    await page.getByRole('link', { name: 'User ada' }).waitFor();
    await ui.open('API keys');
    await page.getByRole('textbox', { name: 'Name' }).fill('from an OpenID session');
    await ui.button('Create key').click();
    const secret = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
    const { body } = await request(t.http).get('/auth').set('X-API-Key', secret).expect(200);
    expect(body.userFullName).toBe('User ada');
    expect(ui.unexpectedErrors()).toEqual([]);
    await page.close();
  });
});
