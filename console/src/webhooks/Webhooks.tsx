import { FormEvent, useCallback, useState } from 'react';
import { ApiError } from '../api/http';
import {
  createWebhook,
  deliveries,
  Delivery,
  newSecret,
  replay,
  sendTest,
  setActive,
  WebhookRow,
  webhooks,
} from '../api/webhooks';
import { Alert } from '../ui/Alert';
import { ShownOnce } from '../ui/ShownOnce';
import { useRead } from '../ui/use-read';

/**
 * The organization's webhooks: make one (its secret shown this once), turn one on or off,
 * send a test, get a new secret; and a webhook's delivery log, whose deliveries replay.
 */
export function Webhooks() {
  const { value: list, error, setError, reload } = useRead<WebhookRow[]>(webhooks, []);
  const [secret, setSecret] = useState<{ name: string; secret: string }>();
  const [open, setOpen] = useState<WebhookRow>();
  const [logVersion, setLogVersion] = useState(0);
  const failed = (e: ApiError) => setError(e.message);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => ((data.get(name) as string | null) ?? '').trim();
    setError(undefined);
    createWebhook({
      name: text('name'),
      url: text('url'),
      events: text('events'),
      ...(text('condition') ? { condition: text('condition') } : {}),
    })
      .then((made) => {
        form.reset();
        setSecret({ name: text('name'), secret: made.secret });
        reload();
      })
      .catch(failed);
  };
  const act = (work: Promise<unknown>) =>
    work
      .then(() => {
        reload();
        setLogVersion((v) => v + 1);
      })
      .catch(failed);

  return (
    <section>
      <h2>Webhooks</h2>
      <form className="inline" aria-label="Create a webhook" onSubmit={create}>
        <label>
          Name <input name="name" required maxLength={100} />
        </label>
        <label>
          URL <input name="url" type="url" required maxLength={2000} />
        </label>
        <label>
          Events <input name="events" required placeholder="invoice.created, invoice.updated" />
        </label>
        <label>
          Condition <input name="condition" placeholder="status = 'paid'" />
        </label>
        <button type="submit">Create webhook</button>
      </form>
      <Alert message={error} />
      {secret && (
        <ShownOnce key={secret.secret} label="Signing secret" value={secret.secret}>
          The signing secret of <strong>{secret.name}</strong>, shown this once: copy it now.
        </ShownOnce>
      )}
      <table aria-label="Webhooks">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((hook) => (
            <tr key={hook.key}>
              <td>{hook.name}</td>
              <td>{hook.url}</td>
              <td>
                {hook.events}
                {hook.condition && <div className="hint">where {hook.condition}</div>}
              </td>
              <td>
                {hook.active
                  ? 'on'
                  : `off${hook.disabled_reason ? `: ${hook.disabled_reason}` : ''}`}
              </td>
              <td>
                <div className="actions">
                  <button type="button" onClick={() => setOpen(hook)}>
                    Deliveries
                  </button>
                  <button type="button" onClick={() => void act(sendTest(hook.key))}>
                    Send test
                  </button>
                  <button type="button" onClick={() => void act(setActive(hook.key, !hook.active))}>
                    {hook.active ? 'Turn off' : 'Turn on'}
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      void newSecret(hook.key)
                        .then(({ secret: renewed }) =>
                          setSecret({ name: hook.name, secret: renewed }),
                        )
                        .catch(failed)
                    }
                  >
                    New secret
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && (
        <DeliveryLog
          key={`${open.key} ${logVersion}`}
          webhook={open}
          onReplay={(delivery) => void act(replay(open.key, delivery.key))}
        />
      )}
    </section>
  );
}

function DeliveryLog({
  webhook,
  onReplay,
}: {
  webhook: WebhookRow;
  onReplay: (delivery: Delivery) => void;
}) {
  const read = useCallback(() => deliveries(webhook.key), [webhook.key]);
  const { value: log, error, reload } = useRead<Delivery[]>(read, []);
  return (
    <section aria-label={`Deliveries of ${webhook.name}`}>
      <h3>
        Deliveries of {webhook.name}{' '}
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </h3>
      <Alert message={error} />
      <table aria-label="Deliveries">
        <thead>
          <tr>
            <th scope="col">Made</th>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Next attempt</th>
            <th scope="col">
              <span className="visually-hidden">Replay</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {log.map((delivery) => (
            <tr key={delivery.key}>
              <td>{new Date(delivery.createdAt).toLocaleString()}</td>
              <td>
                {delivery.eventType} <span className="hint">{delivery.eventId}</span>
              </td>
              <td>
                {delivery.state}
                {delivery.replayOf !== null && ` (replays ${delivery.replayOf})`}
              </td>
              <td>{delivery.attempts.map(attemptText).join('; ')}</td>
              <td>
                {delivery.nextAttemptAt ? new Date(delivery.nextAttemptAt).toLocaleString() : ''}
              </td>
              <td>
                <button type="button" onClick={() => onReplay(delivery)}>
                  Replay
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const attemptText = ({ status, error, durationMs }: Delivery['attempts'][number]) =>
  `${error ?? `HTTP ${status}`} in ${durationMs} ms`;
