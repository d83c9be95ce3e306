import { randomUUID } from 'node:crypto';
import { Locator, Page } from 'playwright-core';
import { ConsolePage, consoleSuite } from './helpers/console-browser';
import { as } from './helpers/access';
import { seedAdmin } from './helpers/test-app';
import { steps } from './helpers/steps';

/**
 * The console's whole story in one browser, step by step on one page (each step starts
 * where the one before stopped): an invoice with two lines and a rule failure on the
 * second, a second tab's change that makes the first stale, a FETCH with an error then a
 * correct one paged, a file uploaded twice, an API key created and revoked, sign out.
 */
describe('the console, end to end', () => {
  const suite = consoleSuite();
  let ui: ConsolePage;
  let page: Page;
  let adminKey: string;
  const accountName = `Scenario ${randomUUID()}`;
  let invoiceKey: number;

  const step = steps();

  beforeAll(async () => {
    ui = new ConsolePage(await (await suite.browser.newContext()).newPage(), suite.base);
    page = ui.page;
    adminKey = (await seedAdmin(suite.t)).key;
    await as(suite.t, adminKey)
      .post('/rest/entity/account', { properties: { name: accountName } })
      .expect(200);
  });

  const lines = () => page.getByRole('table', { name: 'Invoice line' });
  const line = (n: number) => ui.bodyRows(lines()).nth(n);
  const cell = (row: Locator, label: string) =>
    row.getByRole('textbox', { name: label, exact: true });
  /** Chooses a lookup's record by typing part of its name and picking the option. */
  const pick = async (combobox: Locator, text: string, option: string | RegExp) => {
    await combobox.fill(text);
    await page.getByRole('option', { name: option }).first().click();
  };

  step('signs in', async () => {
    await ui.signIn();
    await ui.open('Invoice');
  });

  step(
    'creates an invoice with two lines, and shows the rule failure on the second line',
    async () => {
      await page.getByRole('link', { name: 'New invoice' }).click();
      await pick(
        page.getByRole('combobox', { name: 'Account' }),
        accountName.slice(0, 20),
        accountName,
      );
      await ui.button('Add invoice line').click();
      await ui.button('Add invoice line').click();
      await pick(line(0).getByRole('combobox', { name: 'Product' }), 'Widget', /^Widget/);
      await cell(line(0), 'Quantity').fill('2');
      await cell(line(0), 'Unit price').fill('10.50');
      await cell(line(1), 'Description').fill('Set-up');
      await cell(line(1), 'Quantity').fill('0');
      await cell(line(1), 'Unit price').fill('99.99');
      await ui.button('Save').click();

      // The message (waited for: it comes with the server's answer), on the field it names.
      await expect(line(1).locator('.field-error').textContent()).resolves.toBe(
        'The quantity must be greater than 0',
      );
      await expect(cell(line(1), 'Quantity').getAttribute('aria-invalid')).resolves.toBe('true');
      // The first line is fine, and nothing was stored.
      await expect(cell(line(0), 'Quantity').getAttribute('aria-invalid')).resolves.toBeNull();
      expect(page.url()).toMatch(/#\/records\/invoice\/new$/);
    },
  );

  step('saves once the line is fixed, with the totals the hooks computed', async () => {
    await cell(line(1), 'Quantity').fill('1');
    await ui.button('Save').click();
    await page.waitForURL(/#\/records\/invoice\/\d+$/);
    invoiceKey = Number(/(\d+)$/.exec(page.url())![1]);
    await ui.status().filter({ hasText: 'Saved' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Total' }).inputValue()).resolves.toBe('120.99');
    await expect(page.getByRole('combobox', { name: 'Account' }).inputValue()).resolves.toBe(
      accountName,
    );
    const stored = await as(suite.t, adminKey)
      .get(`/rest/entity/invoice/${invoiceKey}`)
      .expect(200);
    expect(stored.body.properties).toMatchObject({ status: 'draft', total: '120.99' });
    expect(
      stored.body.children.invoice_invoice_line.map((l: { properties: object }) => l.properties),
    ).toEqual([
      expect.objectContaining({ quantity: 2, unit_price: '10.50', amount: '21.00' }),
      expect.objectContaining({ quantity: 1, description: 'Set-up', amount: '99.99' }),
    ]);
  });

  step('edits, meets a change made in a second tab (412), reloads and saves', async () => {
    const second = new ConsolePage(await page.context().newPage(), ui.base);
    await second.page.goto(`${ui.base}/console/#/records/invoice/${invoiceKey}`);
    const currency = second.page.getByRole('textbox', { name: 'Currency' });
    await currency.fill('GBP');
    await second.button('Save').click();
    await second.status().filter({ hasText: 'Saved' }).waitFor();
    expect(second.unexpectedErrors()).toEqual([]);
    await second.page.close();

    await page.getByRole('textbox', { name: 'Number' }).fill('SCEN-1');
    await ui.button('Save').click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/Someone changed this record/);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('textbox', { name: 'Currency' }).inputValue()).resolves.toBe('GBP');
    await page.getByRole('textbox', { name: 'Number' }).fill(`SCEN-${invoiceKey}`);
    await ui.button('Save').click();
    await ui.status().filter({ hasText: 'Saved' }).waitFor();
    const stored = await as(suite.t, adminKey)
      .get(`/rest/entity/invoice/${invoiceKey}`)
      .expect(200);
    expect(stored.body.properties).toMatchObject({ currency: 'GBP', number: `SCEN-${invoiceKey}` });
  });

  step('runs a FETCH with an error, then a correct one, and pages it', async () => {
    await ui.open('FETCH');
    await ui.typeQuery('FETCH invoice (key number)');
    await page.locator('.cm-lint-marker-error').waitFor();
    await ui.button('Run').click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/line 1, column 20/);

    await ui.typeQuery('FETCH invoice (key, number) ORDER BY key ASC LIMIT 5');
    await page.locator('.cm-lint-marker-error').waitFor({ state: 'detached' });
    await ui.button('Run').click();
    await page.getByText(/^5 rows, \d+ in all/).waitFor();
    const { before, after } = await ui.nextFetchPage();
    expect(after).toHaveLength(5);
    expect(after[0]).toBeGreaterThan(before[4]);
  });

  step('uploads a file twice and shows its two versions', async () => {
    await ui.open('Files');
    const name = `scenario-${randomUUID()}.txt`;
    const upload = (title: string, bytes: string) =>
      page
        .getByRole('group', { name: title })
        .getByLabel('File')
        .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(bytes) })
        .then(() =>
          page.getByRole('group', { name: title }).getByRole('button', { name: 'Upload' }).click(),
        );
    await upload('Upload a file', 'first');
    const versions = page.getByRole('table', { name: 'Versions' });
    await ui.bodyRows(versions).first().waitFor();
    await upload('Upload a new version', 'second, longer');
    await ui.bodyRows(versions).nth(1).waitFor();
    await expect(
      ui.bodyRows(versions).locator('td:first-child').allTextContents(),
    ).resolves.toEqual(['2', '1']);
    // Each version downloads its own bytes, with the session the browser holds.
    const downloads = [];
    for (const version of [1, 2]) {
      const download = page.getByRole('link', { name: `Download version ${version}` });
      const response = await page.request.get(`${ui.base}${await download.getAttribute('href')}`);
      downloads.push({ version, status: response.status(), text: await response.text() });
    }
    expect(downloads).toEqual([
      { version: 1, status: 200, text: 'first' },
      { version: 2, status: 200, text: 'second, longer' },
    ]);
  });

  step('creates an API key, shown once, that works until it is revoked', async () => {
    await ui.open('API keys');
    const name = `scenario ${randomUUID()}`;
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await ui.button('Create key').click();
    const secret = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
    await as(suite.t, secret).get('/rest/metadata/entity').expect(200);
    const row = ui
      .bodyRows(page.getByRole('table', { name: 'API keys' }))
      .filter({ hasText: name });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    await as(suite.t, secret).get('/rest/metadata/entity').expect(401);
    // Shown once: gone from the page once it is left.
    await ui.open('Files');
    await ui.open('API keys');
    await ui
      .bodyRows(page.getByRole('table', { name: 'API keys' }))
      .first()
      .waitFor();
    await expect(page.getByRole('textbox', { name: 'New API key' }).count()).resolves.toBe(0);
  });

  step('signs out, and the session is over', async () => {
    await ui.button('Sign out').click();
    await ui.button('Sign in').waitFor();
    await page.reload();
    await ui.button('Sign in').waitFor();
    expect(ui.unexpectedErrors()).toEqual([]);
  });
});
