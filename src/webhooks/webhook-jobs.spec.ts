import type { DeliveryState } from './entities/webhook-delivery.entity';
import { DeliveryJob, stepOf } from './webhook-jobs';

const ready: DeliveryJob = { webhook: 1 };
const event = {
  webhook: 1,
  event: { id: '7', type: 'account.created' },
  owner: { organizationKey: 1, businessUnitKey: 1, userKey: 1 },
} as unknown as DeliveryJob;

const run = (data: DeliveryJob, retryCount = 0, retryLimit = 3) => ({
  data,
  retryCount,
  retryLimit,
});
const on = { active: true };
const off = { active: false };
const made = (state: DeliveryState) => ({ state });

describe('stepOf: what a delivery job does', () => {
  it('does nothing for a webhook deleted, or a delivery delivered or cancelled', () => {
    expect(stepOf(run(ready), undefined, made('retrying'))).toEqual({ step: 'none' });
    expect(stepOf(run(ready), on, made('delivered'))).toEqual({ step: 'none' });
    expect(stepOf(run(event), on, made('cancelled'))).toEqual({ step: 'none' });
  });

  it("cancels an event's delivery once its webhook is turned off, and makes none", () => {
    expect(stepOf(run(event), off, made('retrying'))).toEqual({
      step: 'cancel',
      existing: made('retrying'),
    });
    expect(stepOf(run(event), off, undefined)).toEqual({ step: 'none' });
  });

  it('sends a test or a replay to a webhook turned off: it was asked for', () => {
    expect(stepOf(run(ready), off, made('pending'))).toMatchObject({ step: 'resend' });
  });

  it('sends a delivery made before again, its last attempt on the run the queue has last', () => {
    expect(stepOf(run(ready, 1, 3), on, made('retrying'))).toMatchObject({
      step: 'resend',
      last: false,
    });
    expect(stepOf(run(ready, 3, 3), on, made('retrying'))).toMatchObject({
      step: 'resend',
      last: true,
    });
  });

  it('tries a failed delivery once more, as its last, when its dead letter is retried', () => {
    expect(stepOf(run(ready, 0, 1), on, made('failed'))).toMatchObject({
      step: 'resend',
      last: true,
    });
  });

  it("decides an event's delivery that has no record yet, and skips a ready one that has none", () => {
    expect(stepOf(run(event, 0, 0), on, undefined)).toMatchObject({ step: 'decide', last: true });
    expect(stepOf(run(ready), on, undefined)).toEqual({ step: 'none' });
  });
});
