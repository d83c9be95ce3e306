import { Injectable, Module } from '@nestjs/common';
import { tmpdir } from 'node:os';
import { Page } from 'playwright-core';
import { Webhook as Verifier } from 'standardwebhooks';
import { Job } from '../src/events/event.decorators';
import { JobQueue } from '../src/queue/job-queue.service';
import { ConsolePage, consoleSuite } from './helpers/console-browser';
import { waitFor } from './helpers/postmaster';
import { createUser, seedAdmin } from './helpers/test-app';
import { WebhookReceiver } from './helpers/webhook-receiver';

/** How many times the failing job ran. */
let runs = 0;

@Injectable()
class FailingJob {
  @Job('console-printer', { retryLimit: 0 })
  print(): Promise<void> {
    runs++;
    return Promise.reject(new Error('the printer is on fire'));
  }
}

@Module({ providers: [FailingJob] })
class FailingJobModule {}

/** The Webhooks and Jobs screens of the console, in a real browser. */
describe('the console: webhooks and failed jobs', () => {
  const receiver = new WebhookReceiver();
  const suite = consoleSuite({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', EVENTS_POLL_MS: '100' }, [
    FailingJobModule,
  ]);
  let ui: ConsolePage;
  let page: Page;

  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());
  beforeEach(async () => {
    ui = new ConsolePage(await suite.browser.newPage(), suite.base);
    page = ui.page;
  });
  afterEach(async () => {
    expect(ui.unexpectedErrors()).toEqual([]);
    await page.close();
  });

  it('makes a webhook, shows its secret once, sends a test, and replays it from the delivery log', async () => {
    await ui.signIn();
    await ui.open('Webhooks');
    const form = page.getByRole('form', { name: 'Create a webhook' });
    await form.getByLabel('Name').fill('Console hook');
    await form.getByLabel('URL').fill(`${receiver.url}/ok/console`);
    await form.getByLabel('Events').fill('account.created');
    await ui.button('Create webhook').click();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    const row = ui.bodyRows(page.getByRole('table', { name: 'Webhooks' })).filter({
      hasText: 'Console hook',
    });
    await expect(row.locator('td').nth(3).textContent()).resolves.toBe('on');

    await row.getByRole('button', { name: 'Send test' }).click();
    await waitFor(() => receiver.bodies('/ok/console').length === 1, 20_000);
    const [sent] = receiver.received.filter((r) => r.path === '/ok/console');
    expect(
      new Verifier(secret).verify(sent.body, sent.headers as Record<string, string>),
    ).toMatchObject({ type: 'webhook.test' });

    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await ui.bodyRows(log).filter({ hasText: 'delivered' }).first().waitFor();
    await expect(ui.bodyRows(log).first().textContent()).resolves.toMatch(
      /webhook\.test.*delivered.*HTTP 200 in \d+ ms/,
    );
    await ui.bodyRows(log).first().getByRole('button', { name: 'Replay' }).click();
    await waitFor(() => receiver.bodies('/ok/console').length === 2, 20_000);
    await waitFor(async () => {
      await ui.button('Refresh').click();
      return (
        (await ui
          .bodyRows(log)
          .filter({ hasText: /replays \d+/ })
          .count()) === 1
      );
    }, 20_000);
    await page.screenshot({ path: `${tmpdir()}/atrium-webhooks.png`, fullPage: true });

    await row.getByRole('button', { name: 'Turn off' }).click();
    await row.locator('td').nth(3).filter({ hasText: /^off$/ }).waitFor();
  });

  it('lists a failed job with its error, and tries it again', async () => {
    const { user } = await seedAdmin(suite.t);
    await suite.t.app
      .get(JobQueue)
      .send('console-printer', { organization: user.idOrganization, actor: user.key, payload: {} });
    await waitFor(async () => {
      const [{ n }] = await suite.t.dataSource.query(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'console-printer' AND state = 'failed'`,
      );
      return n === 1;
    }, 20_000);
    await ui.signIn();
    await ui.open('Jobs');
    // On a shared database other files' failed jobs of this organization are listed too.
    const row = ui
      .bodyRows(page.getByRole('table', { name: 'Failed jobs' }))
      .filter({ hasText: 'console-printer' })
      .first();
    await expect(row.textContent()).resolves.toMatch(/console-printer.*the printer is on fire.*1/);
    expect(runs).toBe(1);
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(ui.status().textContent()).resolves.toBe('console-printer: tried once more.');
    await waitFor(() => runs === 2, 20_000);
  });

  it('shows neither screen to a user who is not an administrator', async () => {
    const member = await createUser(suite.t);
    await ui.signIn(member.userName, member.password);
    await expect(ui.nav.getByRole('link', { name: 'Webhooks' }).count()).resolves.toBe(0);
    await expect(ui.nav.getByRole('link', { name: 'Jobs' }).count()).resolves.toBe(0);
  });
});
