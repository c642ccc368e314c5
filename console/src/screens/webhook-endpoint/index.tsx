import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import {
  webhookEndpointsGet,
  webhookEndpointsRecover,
  webhookEndpointsRotateSecret,
  webhookEndpointsTest,
  webhookEndpointsUpdate,
  type WebhookEndpointRead,
  type WebhookMessageRead,
  webhookMessagesList,
  webhookMessagesResend,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, isConflict, Problem } from '../../ui/problem.js';
import { Badge, Listing, Loading, Pager, Time, withQuery, QueryFilter } from '../../ui/table.js';
import { SecretPanel } from '../webhooks/secret.js';
import { disabledReason, previousSignsUntil } from '../webhooks/words.js';

const STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
/** How often the log is read again while a message is on its way (delivery is asynchronous). */
const POLL_MS = 1500;
/** A retry further off than this is not polled for: the operator reloads, or resends. */
const POLL_HORIZON_MS = 60_000;

/**
 * One webhook endpoint: what it is and why it is disabled, its actions (test, rotate, recover,
 * enable again) for a manager or owner, and the delivery log filtered by status in the URL, each
 * message with its attempts and a resend.
 */
export function WebhookEndpointScreen() {
  const { client, tenant, can } = useConsole();
  const { params } = useRoute();
  const { query } = useLocation();
  const id = params.id!;
  const status = STATUSES.find((s) => s === query.status);
  const cursor = query.cursor || undefined;
  const path = { tenant_id: tenant, endpoint_id: id };

  const endpoint = useLoad(async () => (await webhookEndpointsGet({ client, path })).data, [tenant, id]);
  const messages = useLoad(
    async () => (await webhookMessagesList({ client, path, query: { status, cursor, limit: 50 } })).data,
    [tenant, id, status, cursor],
  );

  // While a message is on its way its outcome is seconds off: read the log again until it lands.
  const items = messages.data?.items ?? [];
  const onItsWay = items.some(
    (m) =>
      m.status === 'pending' ||
      (m.status === 'retrying' &&
        m.next_attempt_at !== null &&
        Date.parse(m.next_attempt_at) - Date.now() < POLL_HORIZON_MS),
  );
  useEffect(() => {
    if (!onItsWay || messages.state !== 'ok') return;
    const timer = setTimeout(messages.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [onItsWay, messages.state, messages.data]);
  // An outcome may change the endpoint too (a 410 disables it): read it again when one lands.
  const outcomes = items.map((m) => `${m.id}:${m.status}:${m.attempts.length}`).join(' ');
  useEffect(() => {
    if (outcomes) endpoint.reload();
  }, [outcomes]);

  const managing = can('webhooks.manage');
  const changed = () => {
    endpoint.reload();
    messages.reload();
  };

  return (
    <section aria-labelledby="title">
      <p class="crumbs">
        <a href={tenantPath(tenant, 'webhooks')}>Webhook endpoints</a> /
      </p>
      {endpoint.state === 'loading' ? (
        <Loading />
      ) : endpoint.state === 'error' ? (
        <>
          <h1 id="title">Webhook endpoint</h1>
          <Problem error={endpoint.error} />
        </>
      ) : (
        <>
          <h1 id="title" class="mono endpoint-url">
            {endpoint.data.url}
          </h1>
          <Facts e={endpoint.data} />
          {managing ? <Actions e={endpoint.data} onChanged={changed} /> : null}
          <h2>Messages</h2>
          <form class="filters" onSubmit={(e) => e.preventDefault()}>
            <QueryFilter label="Status" name="status" value={status} options={STATUSES} />
            <button type="button" onClick={messages.reload}>
              Refresh
            </button>
          </form>
          <Listing
            list={messages}
            empty={status ? `No ${status} messages.` : 'No messages yet: send a test to see one.'}
          >
            {(data) => (
              <>
                <Messages items={data.items} managing={managing} onResent={messages.reload} />
                <Pager next={data.next_cursor} href={(c) => withQuery({ cursor: c })} />
              </>
            )}
          </Listing>
        </>
      )}
    </section>
  );
}

function Facts({ e }: { e: WebhookEndpointRead }) {
  const previousUntil = previousSignsUntil(e);
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd data-testid="endpoint-status">
        <Badge value={e.status} />
        {e.status === 'disabled' ? ` ${disabledReason(e)}` : null}
      </dd>
      <dt>Description</dt>
      <dd>{e.description ?? <span class="muted">–</span>}</dd>
      <dt>Events</dt>
      <dd class="mono">{e.event_types.join(', ')}</dd>
      <dt>Secret</dt>
      <dd>
        {e.secret_rotated_at ? (
          <>
            rotated <Time at={e.secret_rotated_at} />
            {previousUntil ? (
              <>
                ; the one before also signs until <Time at={previousUntil} />
              </>
            ) : null}
          </>
        ) : (
          'as created'
        )}
      </dd>
      <dt>Created</dt>
      <dd>
        <Time at={e.created_at} />
      </dd>
    </dl>
  );
}

/** What a manager or owner may do to the endpoint; each says what it did. */
function Actions({ e, onChanged }: { e: WebhookEndpointRead; onChanged: () => void }) {
  const { client, tenant } = useConsole();
  const path = { tenant_id: tenant, endpoint_id: e.id };
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The new secret after a rotation, kept only while its panel is up (as at creation).
  const [rotated, setRotated] = useState<{ secret: string; previousUntil: string | null }>();
  const [since, setSince] = useState(() => localInput(Date.now() - 24 * 3600 * 1000));

  const act = async (what: () => Promise<string | undefined>) => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await what());
      onChanged();
    } catch (err) {
      setError(err);
      if (isConflict(err)) onChanged();
    } finally {
      setBusy(false);
    }
  };

  const enable = () =>
    act(async () => {
      await webhookEndpointsUpdate({ client, path, body: { enabled: true } });
      return 'Enabled again: new changes are sent to it.';
    });
  const test = () =>
    act(async () => {
      await webhookEndpointsTest({ client, path });
      return 'Test message queued.';
    });
  const rotate = () =>
    act(async () => {
      const { data } = await webhookEndpointsRotateSecret({ client, path });
      // The time the old secret stops is the rotation's own, as the service recorded it.
      const after = (await webhookEndpointsGet({ client, path })).data;
      setRotated({ secret: data.secret, previousUntil: previousSignsUntil(after) });
      return undefined;
    });
  const recover = () =>
    act(async () => {
      const at = new Date(since);
      const { data } = await webhookEndpointsRecover({
        client,
        path,
        // An empty or unreadable time goes as it is: the service names `since` in its 422.
        body: { since: Number.isNaN(at.getTime()) ? since : at.toISOString() },
      });
      return data.queued === 1
        ? '1 failed message queued again.'
        : `${data.queued} failed messages queued again.`;
    });

  return (
    <>
      {e.status === 'disabled' ? (
        <div class="problem" data-testid="disabled">
          Disabled: {disabledReason(e)}. Changes made while it is disabled are not sent to it.{' '}
          <button type="button" disabled={busy} onClick={() => void enable()}>
            Enable again
          </button>
        </div>
      ) : null}
      {rotated ? (
        <SecretPanel secret={rotated.secret} onDismiss={() => setRotated(undefined)}>
          <p data-testid="rotation-overlap">
            Both secrets sign every message for 24 hours, so a receiver can switch without missing one: the
            old secret stops signing at <Time at={rotated.previousUntil} seconds />.
          </p>
        </SecretPanel>
      ) : null}
      <form class="actions" onSubmit={(ev) => ev.preventDefault()}>
        <button type="button" disabled={busy} onClick={() => void test()}>
          Send a test
        </button>
        <button type="button" disabled={busy} onClick={() => void rotate()}>
          Rotate secret
        </button>
        <span class="recover">
          <label for="recover-since">Resend failed since</label>{' '}
          <input
            id="recover-since"
            name="since"
            type="datetime-local"
            value={since}
            aria-describedby="recover-since-error"
            onInput={(ev) => setSince(ev.currentTarget.value)}
          />{' '}
          <button type="button" disabled={busy} onClick={() => void recover()}>
            Recover
          </button>
          <FieldError error={error} path="since" id="recover-since-error" />
        </span>
        {done ? (
          <span role="status" class="ok">
            {done}
          </span>
        ) : null}
      </form>
      {error && !isConflict(error) ? <Problem error={error} /> : null}
    </>
  );
}

/** The log: one row per message, its attempts listed under it (time, status code, duration, error). */
function Messages({
  items,
  managing,
  onResent,
}: {
  items: WebhookMessageRead[];
  managing: boolean;
  onResent: () => void;
}) {
  const { client, tenant } = useConsole();
  const [error, setError] = useState<unknown>();
  const [resent, setResent] = useState<string>();

  const resend = async (m: WebhookMessageRead) => {
    setError(undefined);
    setResent(undefined);
    try {
      await webhookMessagesResend({
        client,
        path: { tenant_id: tenant, endpoint_id: m.endpoint_id, message_id: m.id },
      });
      setResent(`Resent: ${m.event_type} ${m.id}.`);
    } catch (err) {
      setError(err);
    }
    onResent();
  };

  return (
    <>
      {error ? <Problem error={error} /> : null}
      {resent ? (
        <p role="status" class="ok">
          {resent}
        </p>
      ) : null}
      <table class="list" data-testid="webhook-messages">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Next attempt</th>
            <th scope="col">Created</th>
            {managing ? <th scope="col">Resend</th> : null}
          </tr>
        </thead>
        <tbody>
          {items.map((m) => (
            <tr key={m.id} data-message={m.id}>
              <td>
                <span class="mono">{m.event_type}</span>
                <br />
                <span class="mono muted nowrap">{m.id}</span>
              </td>
              <td>
                <Badge value={m.status} />
              </td>
              <td>
                <Attempts m={m} />
              </td>
              <td>
                <Time at={m.next_attempt_at} seconds />
              </td>
              <td>
                <Time at={m.created_at} seconds />
              </td>
              {managing ? (
                <td class="row-actions">
                  <button
                    type="button"
                    aria-label={`Resend ${m.event_type} ${m.id}`}
                    onClick={() => void resend(m)}
                  >
                    Resend
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Attempts({ m }: { m: WebhookMessageRead }) {
  if (m.attempts.length === 0)
    return (
      <span class="muted">{m.status === 'failed' ? 'none: the endpoint was disabled' : 'none yet'}</span>
    );
  return (
    <table class="attempts" aria-label={`Attempts of ${m.id}`}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Status code</th>
          <th scope="col">Duration</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {m.attempts.map((a, i) => (
          <tr key={i}>
            <td>
              <Time at={a.at} seconds />
            </td>
            <td class={a.status_code !== null && a.status_code < 300 ? 'ok' : 'bad'}>
              {a.status_code ?? 'no answer'}
            </td>
            <td>{a.duration_ms} ms</td>
            <td class="mono">{a.error_code ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a datetime-local input's value, in the browser's time zone (what the operator reads). */
function localInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
