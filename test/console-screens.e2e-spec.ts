import { randomUUID } from 'node:crypto';
import { Page } from 'playwright-core';
import request from 'supertest';
import { ConsolePage, consoleSuite } from './helpers/console-browser';
import { as } from './helpers/access';
import { createUser, login, postFetch, seedAdmin } from './helpers/test-app';

/** The console's screens beyond the main story, each on a fresh page, in a real browser. */
describe('the console screens', () => {
  const suite = consoleSuite();
  let ui: ConsolePage;
  let page: Page;
  let adminKey: string;

  beforeAll(async () => {
    adminKey = (await seedAdmin(suite.t)).key;
  });
  beforeEach(async () => {
    ui = new ConsolePage(await suite.browser.newPage(), suite.base);
    page = ui.page;
  });
  afterEach(async () => {
    expect(ui.unexpectedErrors()).toEqual([]);
    await page.close();
  });

  const admin = () => as(suite.t, adminKey);
  const field = (label: string) => page.getByRole('textbox', { name: label, exact: true });

  describe('records', () => {
    it('keeps decimals exact, names a taken value (409), and deletes after asking', async () => {
      const code = `C-${randomUUID()}`;
      await admin().post('/rest/entity/product', { properties: { code } }).expect(200);
      await ui.signIn();
      await ui.open('Product');
      await page.getByRole('link', { name: 'New product' }).click();
      // A new form starts as the database would store it.
      await expect(page.getByRole('checkbox', { name: 'Active' }).isChecked()).resolves.toBe(true);
      await field('Product code').fill(code);
      await field('Price').fill('123456789012.35');
      await ui.button('Save').click();
      await expect(page.locator('#field-code-error').textContent()).resolves.toBe(
        `"${code}" is taken: another product already has this code`,
      );

      await field('Product code').fill(`${code}-2`);
      await ui.button('Save').click();
      await page.waitForURL(/#\/records\/product\/\d+$/);
      const key = Number(/(\d+)$/.exec(page.url())![1]);
      const { body } = await admin().get(`/rest/entity/product/${key}`).expect(200);
      expect(body.properties).toMatchObject({ code: `${code}-2`, price: '123456789012.35' });

      await ui.button('Delete').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await admin().get(`/rest/entity/product/${key}`).expect(200);
      await ui.button('Delete').click();
      await expect(page.getByRole('dialog').textContent()).resolves.toContain(
        `Delete product ${key}?`,
      );
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(/#\/records\/product$/);
      await admin().get(`/rest/entity/product/${key}`).expect(404);
    });

    it('searches a lookup by name and picks with the keyboard', async () => {
      const name = `Picker ${randomUUID()}`;
      const { body } = await admin()
        .post('/rest/entity/account', { properties: { name } })
        .expect(200);
      await ui.signIn();
      await ui.open('Contact');
      await page.getByRole('link', { name: 'New contact' }).click();
      await field('Last name').fill('Keyboard');
      const picker = page.getByRole('combobox', { name: 'Account' });
      await picker.fill(name.slice(0, 16));
      await page.getByRole('option', { name }).waitFor();
      await expect(page.getByRole('option').count()).resolves.toBe(1);
      await picker.press('ArrowDown');
      await picker.press('Enter');
      await expect(picker.inputValue()).resolves.toBe(name);
      await ui.button('Save').click();
      await page.waitForURL(/#\/records\/contact\/\d+$/);
      const key = Number(/(\d+)$/.exec(page.url())![1]);
      const stored = await admin().get(`/rest/entity/contact/${key}`).expect(200);
      expect(stored.body.properties).toMatchObject({ last_name: 'Keyboard', id_account: body.key });
      // The list names the account, not its key.
      await ui.open('Contact');
      await ui.bodyRows().filter({ hasText: name }).first().waitFor();
    });

    it("puts the server's 400 on the field its path names", async () => {
      await ui.signIn();
      await ui.open('Customer account');
      await page.getByRole('link', { name: 'New customer account' }).click();
      await field('Email').fill('someone@example.test');
      await ui.button('Save').click();
      await expect(page.locator('#field-name-error').textContent()).resolves.toBe('is required');
      await expect(field('Name').getAttribute('aria-invalid')).resolves.toBe('true');
    });
  });

  it('runs a workflow method from a form of its arguments, and shows its answer or refusal', async () => {
    const { body: account } = await admin()
      .post('/rest/entity/account', {
        properties: { name: `Workflow ${randomUUID()}` },
      })
      .expect(200);
    await admin()
      .post('/rest/entity/invoice', {
        properties: { id_account: account.key, issue_date: '2026-02-01T10:00:00Z' },
        children: {
          invoice_invoice_line: [{ properties: { quantity: 3, unit_price: '2.50' } }],
        },
      })
      .expect(200);
    await ui.signIn();
    await ui.open('Workflows');
    const summary = page.getByRole('form', { name: 'invoicing.summary' });
    await summary.getByLabel('accountKey').fill(String(account.key));
    await summary.getByLabel('from').fill('2026-01-01T00:00:00');
    await summary.getByLabel('to').fill('2026-12-31T23:59:59');
    await summary.getByRole('button', { name: 'Run' }).click();
    const result = summary.getByRole('status');
    await expect(result.textContent().then((text) => JSON.parse(text!))).resolves.toEqual({
      count: 1,
      total: '7.50',
    });

    await summary.getByLabel('accountKey').fill('999999999');
    await summary.getByRole('button', { name: 'Run' }).click();
    await expect(summary.getByRole('alert').textContent()).resolves.toBe(
      'account 999999999 not found',
    );
    await summary.getByLabel('accountKey').fill('twelve');
    await summary.getByRole('button', { name: 'Run' }).click();
    await expect(summary.locator('.field-error').textContent()).resolves.toBe(
      'Expected a whole number',
    );
  });

  it("edits a role's privilege grid and a user's roles", async () => {
    const roleName = `console-${randomUUID().slice(0, 8)}`;
    const user = await createUser(suite.t, { roles: [] });
    await ui.signIn();
    await ui.open('Access');
    await page.getByRole('textbox', { name: 'Role name' }).fill(roleName);
    await ui.button('Create role').click();
    const grid = page.getByRole('table', { name: `Privileges of ${roleName}` });
    await grid
      .getByRole('combobox', { name: 'Customer account: read' })
      .selectOption('business_unit');
    await grid.getByRole('combobox', { name: 'Contact: create' }).selectOption('user');
    await page.getByRole('checkbox', { name: 'Customer account: Credit limit: read' }).check();
    await page
      .getByRole('region', { name: `Role ${roleName}` })
      .getByRole('button', { name: 'Save' })
      .click();
    await ui
      .status()
      .filter({ hasText: `Saved the role ${roleName}` })
      .waitFor();

    const [role] = (
      await postFetch(suite.t, adminKey, `FETCH role (key) WHERE name = '${roleName}'`).expect(200)
    ).body;
    const { body: stored } = await admin().get(`/rest/entity/role/${role.key}`).expect(200);
    const privileges = stored.children.role_role_privilege.map(
      ({ properties: p }: { properties: Record<string, string> }) => [
        p.entity_name,
        p.create,
        p.read,
      ],
    );
    expect(privileges.sort()).toEqual([
      ['account', 'none', 'business_unit'],
      ['contact', 'user', 'none'],
    ]);
    expect(stored.children.role_role_field_permission[0].properties).toMatchObject({
      entity_name: 'account',
      property: 'credit_limit',
      read: true,
      update: false,
    });

    await page.getByRole('checkbox', { name: `${roleName} for ${user.userName}` }).check();
    await ui
      .status()
      .filter({ hasText: `Saved the roles of ${user.userName}` })
      .waitFor();
    const { cookie } = await login(suite.t, user.userName, user.password);
    const { body: granted } = await request(suite.t.http)
      .get('/rest/metadata/privileges')
      .set('Cookie', cookie)
      .expect(200);
    expect(granted.roles).toEqual([roleName]);
    expect(granted.entities.account.read).toBe('business_unit');
  });

  it("keeps a role's unsaved privileges while users' roles are changed beside it", async () => {
    const roleName = `console-${randomUUID().slice(0, 8)}`;
    await admin()
      .post('/rest/entity/role', { properties: { name: roleName } })
      .expect(200);
    const user = await createUser(suite.t, { roles: [] });
    await ui.signIn();
    await ui.open('Access');
    await ui.button(roleName).click();
    const productDelete = page
      .getByRole('table', { name: `Privileges of ${roleName}` })
      .getByRole('combobox', { name: 'Product: delete' });
    await productDelete.selectOption('organization');
    await page.getByRole('checkbox', { name: `${roleName} for ${user.userName}` }).check();
    await ui
      .status()
      .filter({ hasText: `Saved the roles of ${user.userName}` })
      .waitFor();
    // The roles and users are read again after that save: the role's grid is not.
    await page.waitForLoadState('networkidle');
    await expect(productDelete.inputValue()).resolves.toBe('organization');
  });

  it("shows an upload's progress while its bytes go, then the file", async () => {
    await ui.signIn();
    await ui.open('Files');
    // A slow uplink (256 KiB/s), so that the progress of a 1 MiB upload can be seen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    const name = `progress-${randomUUID()}.bin`;
    const upload = page.getByRole('group', { name: 'Upload a file' });
    await upload
      .getByLabel('File')
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.alloc(1 << 20) });
    await upload.getByRole('button', { name: 'Upload' }).click();
    const progress = upload.getByRole('progressbar', { name: 'Upload progress' });
    await progress.waitFor();
    await expect(upload.getByRole('button', { name: 'Upload' }).isDisabled()).resolves.toBe(true);
    // It moves: read until it is gone, some of the bytes are seen sent, not all.
    const seen: number[] = [];
    while ((await progress.count()) > 0) {
      const value = await progress.getAttribute('value', { timeout: 1000 }).catch(() => null);
      if (value !== null) seen.push(Number(value));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen.some((value) => value > 0 && value < 1)).toBe(true);
    await page.getByRole('button', { name }).waitFor();
    await expect(
      ui
        .bodyRows(page.getByRole('table', { name: 'Versions' }))
        .first()
        .textContent(),
    ).resolves.toContain('1.0 MB');
  });

  it('changes the password: the new one signs in, the old one no longer', async () => {
    const user = await createUser(suite.t);
    await ui.signIn(user.userName, user.password);
    await page.getByRole('link', { name: user.userName }).click();
    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('console-new-pass-1');
    await page.getByLabel('Confirm new password').fill('console-new-pass-1');
    await ui.button('Change password').click();
    await ui.status().filter({ hasText: 'Password changed' }).waitFor();
    await request(suite.t.http)
      .post('/auth')
      .send({ user: user.userName, password: user.password })
      .expect(401);
    await request(suite.t.http)
      .post('/auth')
      .send({ user: user.userName, password: 'console-new-pass-1' })
      .expect(200);
  });
});
