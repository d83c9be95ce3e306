import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { Page } from 'playwright-core';
import request from 'supertest';
import { ConsolePage, consoleSuite } from './helpers/console-browser';
import { as } from './helpers/access';
import { createUser, login, postFetch, seedAdmin } from './helpers/test-app';

/** The console's screens beyond the main story, each on a fresh page, in a real browser. */
describe('the console screens', () => {
  // A failed sign-in below comes from an address of its own (X-Forwarded-For from loopback):
  // the failures an address may make are counted across the whole suite's database.
  const suite = consoleSuite({ TRUST_PROXY: '127.0.0.1' });
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
  describe('history and audit', () => {
    const LINES = 'invoice_invoice_line';

    it("shows a record's changes with its lines under them, and the record as it was", async () => {
      const { body: account } = await admin()
        .post('/rest/entity/account', { properties: { name: `History ${randomUUID()}` } })
        .expect(200);
      const line = (quantity: number, description: string) => ({
        properties: { quantity, unit_price: '2.00', description },
      });
      const { body: created } = await admin()
        .post('/rest/entity/invoice', {
          properties: { id_account: account.key },
          children: { [LINES]: [line(1, 'first'), line(2, 'second')] },
        })
        .expect(200);
      const { body: read } = await admin().get(`/rest/entity/invoice/${created.key}`).expect(200);
      const first = read.children[LINES][0].properties.key;
      await admin()
        .post(`/rest/entity/invoice/${created.key}`, {
          children: { [LINES]: [{ properties: { key: first, quantity: 3 } }, line(4, 'third')] },
        })
        .expect(200);

      await ui.signIn();
      await page.goto(`${suite.base}/console/#/records/invoice/${created.key}`);
      await page.getByRole('link', { name: 'History', exact: true }).click();
      await page.waitForURL(/#\/records\/invoice\/\d+\/history$/);
      const changed = page.getByRole('article', { name: /^Changed / });
      await changed.getByRole('row', { name: /Quantity 1 → 3/ }).waitFor();
      await expect(changed.textContent()).resolves.toMatch(/Invoice line \d+: deleted/);
      await expect(changed.textContent()).resolves.toMatch(/Invoice line \d+: created/);
      await expect(changed.textContent()).resolves.toContain('by admin (api-key');
      const made = page.getByRole('article', { name: /^Created / });
      await made.getByRole('row', { name: /Total\s+6\.00/ }).waitFor();
      // The server's own columns are not changes anyone made.
      await expect(made.getByRole('row', { name: /Uuid/ }).count()).resolves.toBe(0);

      await ui.button('Show the record as it was').last().click();
      const then = page.getByRole('region', { name: /as it was at/ });
      const rows = then.getByRole('table', { name: 'Invoice line as it was' }).locator('tbody tr');
      await rows.first().waitFor();
      await expect(rows.count()).resolves.toBe(2);
      await expect(rows.first().textContent()).resolves.toContain('first');
      await page.screenshot({ path: `${tmpdir()}/atrium-history.png`, fullPage: true });
    });

    it('lists failed sign-ins on the Audit screen, under Administration', async () => {
      await request(suite.t.http)
        .post('/auth')
        .set('X-Forwarded-For', '198.51.100.7')
        .send({ user: 'admin', password: 'not-it-at-all' })
        .expect(401);
      await ui.signIn();
      const group = page.getByRole('group', { name: 'Administration' });
      // The navigation is drawn from the metadata once it arrives: wait for its last link.
      await group.getByRole('link', { name: 'Jobs' }).waitFor();
      await expect(group.getByRole('link').allTextContents()).resolves.toEqual([
        'Role',
        'User',
        'Business unit',
        'Organization',
        'Access',
        'Audit',
        'Webhooks',
        'Jobs',
      ]);
      await expect(ui.nav.getByRole('link', { name: 'Change log' }).count()).resolves.toBe(0);
      await ui.open('Audit');
      await page.getByLabel('Operation').selectOption('sign_in_failed');
      await ui.button('Filter').click();
      const first = ui.bodyRows().first();
      await first.filter({ hasText: 'sign in failed' }).waitFor();
      await expect(first.textContent()).resolves.toContain('admin');
      await expect(first.textContent()).resolves.toContain('198.51.100.7');
      await page.screenshot({ path: `${tmpdir()}/atrium-audit.png`, fullPage: true });
    });

    it('opens a record from its name in the list, not only its key', async () => {
      const name = `Named ${randomUUID()}`;
      const { body } = await admin()
        .post('/rest/entity/account', { properties: { name } })
        .expect(200);
      await ui.signIn();
      await ui.open('Customer account');
      await page.getByRole('link', { name, exact: true }).click();
      await page.waitForURL(new RegExp(`#/records/account/${body.key}$`));
    });
  });
});
