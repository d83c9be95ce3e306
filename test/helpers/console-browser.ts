import { AddressInfo } from 'node:net';
import { Browser, chromium, Locator, Page } from 'playwright-core';
import { TEST_ADMIN_PASSWORD } from './constants';
import { createTestApp, TestApp } from './test-app';

/** Debian's Chromium (npm test and .ci/run install it when missing). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM });

/** The test app listening on loopback, as a browser reaches it. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

/** What a browser suite runs against: the app listening on loopback, and Chromium. */
export interface ConsoleSuite {
  t: TestApp;
  base: string;
  browser: Browser;
}

/**
 * Starts the app (with `env`, and `modules` beside its own) and Chromium before the suite's
 * tests, and stops both after.
 */
export function consoleSuite(
  env: Record<string, string> = {},
  modules: Parameters<typeof createTestApp>[1] = [],
): ConsoleSuite {
  const suite = {} as ConsoleSuite;
  beforeAll(async () => {
    suite.t = await createTestApp(env, modules);
    suite.base = await listen(suite.t);
    suite.browser = await launchChromium();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.t?.close();
  });
  return suite;
}

/**
 * The console in one browser page, driven as a person would: by the accessible names
 * of its controls. Errors the page itself reports are kept for the test to check.
 */
export class ConsolePage {
  readonly errors: string[] = [];

  constructor(
    readonly page: Page,
    readonly base: string,
  ) {
    page.on('pageerror', (error) => this.errors.push(error.message));
    page.on('console', (message) => {
      // Only the console's own pages (not an OpenID provider's, visited on the way).
      if (message.type() === 'error' && page.url().startsWith(base)) {
        this.errors.push(message.text());
      }
    });
  }

  /**
   * The errors the page reported: its scripts' errors and any 5xx, not the browser's
   * notes of the 4xx refusals a test provokes on purpose (a 424, a 412, a parse error).
   */
  unexpectedErrors(): string[] {
    return this.errors.filter((error) => !/server responded with a status of 4\d\d/.test(error));
  }

  async signIn(user = 'admin', password = TEST_ADMIN_PASSWORD, path = '/console/'): Promise<void> {
    await this.page.goto(`${this.base}${path}`);
    await this.page.getByLabel('User').fill(user);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.nav.waitFor();
  }

  get nav(): Locator {
    return this.page.getByRole('navigation');
  }

  /** Follows a link of the navigation, and waits until it is the page shown. */
  async open(label: string): Promise<void> {
    const link = this.nav.getByRole('link', { name: label, exact: true });
    await link.click();
    await link.and(this.page.locator('[aria-current="page"]')).waitFor();
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** Replaces the FETCH editor's text, typed as a person would. */
  async typeQuery(text: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'FETCH query' }).click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.type(text);
  }

  /**
   * The playground's next page: the keys (its first column) of the rows shown before and
   * after "Next page", once the page has changed.
   */
  async nextFetchPage(): Promise<{ before: number[]; after: number[] }> {
    const keys = async () =>
      (await this.bodyRows().locator('td:first-child').allTextContents()).map(Number);
    const before = await keys();
    await this.button('Next page').click();
    // The page's CSP forbids evaluating strings: waited for through a locator instead.
    await this.bodyRows()
      .first()
      .locator('td')
      .first()
      .filter({ hasNotText: new RegExp(`^${before[0]}$`) })
      .waitFor();
    return { before, after: await keys() };
  }

  /** The rows of a table's body. */
  bodyRows(table: Locator = this.page.getByRole('table').first()): Locator {
    return table.locator('tbody tr');
  }

  /** What the page announces in its status line (a save, a change). */
  status(): Locator {
    return this.page.getByRole('status');
  }
}
