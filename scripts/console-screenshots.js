'use strict';
/**
 * `npm run docs:screenshots`: the console's main screens as PNGs in docs/console/, taken
 * in Chromium from the built server on a fresh database with the demo data (the
 * benchmarks' harness starts and cleans up both). docs/console.md shows them.
 */
const path = require('node:path');
const {
  ADMIN_PASSWORD,
  launchChromium,
  log,
  runBenchmark,
  signIn,
  startDemoApp,
} = require('../bench/harness');

const OUT = path.join(__dirname, '..', 'docs', 'console');
const VIEWPORT = { width: 1280, height: 800 };

async function main() {
  const app = await startDemoApp();
  const admin = await signIn(app);
  // A file with two versions, for the Files screen.
  for (const text of ['Terms, first draft', 'Terms, as signed']) {
    const form = new FormData();
    if (text.endsWith('signed')) form.set('id', '1');
    form.set('file', new Blob([text], { type: 'text/plain' }), 'terms.txt');
    await fetch(`${app.base}/storage`, {
      method: 'POST',
      headers: { 'X-API-Key': admin.apiKey },
      body: form,
    });
  }

  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: VIEWPORT });
  const shoot = async (name) => {
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(OUT, `${name}.png`) });
    log(`docs/console/${name}.png`);
  };
  const open = (label) =>
    page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();

  await page.goto(`${app.base}/console/`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await shoot('sign-in');
  await page.getByLabel('User').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await open('Invoice');
  await page.getByText(/^\d+ records$/).waitFor();
  await shoot('records');

  // A new invoice whose second line breaks a rule: the 424 on its row and column.
  await page.getByRole('link', { name: 'New invoice' }).click();
  const account = page.getByRole('combobox', { name: 'Account' });
  await account.fill('Acme');
  await page.getByRole('option', { name: /^Acme/ }).first().click();
  const lines = page.getByRole('table', { name: 'Invoice line' }).locator('tbody tr');
  for (const [product, quantity, price] of [
    ['Widget', '4', '12.50'],
    ['Gadget', '0', '99.90'],
  ]) {
    await page.getByRole('button', { name: 'Add invoice line' }).click();
    const line = lines.last();
    await line.getByRole('combobox', { name: 'Product' }).fill(product);
    await line.getByRole('option').first().click();
    await line.getByRole('textbox', { name: 'Quantity' }).fill(quantity);
    await line.getByRole('textbox', { name: 'Unit price' }).fill(price);
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await lines.nth(1).locator('.field-error').waitFor();
  await shoot('record-form');

  await open('FETCH');
  const editor = page.getByRole('textbox', { name: 'FETCH query' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(
    'FETCH invoice (number, status, total) { account TO id_account (name AS account) }\n' +
      "WHERE status = 'paid' ORDER BY total DESC LIMIT 8",
  );
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByText(/^8 rows/).waitFor();
  await shoot('fetch');

  await open('Workflows');
  const summary = page.getByRole('form', { name: 'invoicing.summary' });
  await summary.getByLabel('accountKey').fill('1');
  await summary.getByLabel('from').fill('2024-01-01T00:00:00');
  await summary.getByLabel('to').fill('2026-12-31T23:59:59');
  await summary.getByRole('button', { name: 'Run' }).click();
  await summary.getByRole('status').waitFor();
  await shoot('workflows');

  await open('Files');
  await page.getByRole('button', { name: 'terms.txt' }).click();
  await page.getByRole('table', { name: 'Versions' }).locator('tbody tr').nth(1).waitFor();
  await shoot('files');

  await open('API keys');
  await page.getByRole('textbox', { name: 'Name' }).fill('nightly export');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('textbox', { name: 'New API key' }).waitFor();
  await shoot('api-keys');

  await open('Access');
  await page.getByRole('button', { name: 'sales-rep' }).click();
  await page.getByRole('table', { name: 'Privileges of sales-rep' }).waitFor();
  await shoot('access');
}

runBenchmark(main);
