import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  eventTypesList,
  webhookEndpointsCreate,
  webhookEndpointsList,
  type WebhookEventType,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, Problem } from '../../ui/problem.js';
import { Badge, Listing, Loading, Pager, Time, withQuery } from '../../ui/table.js';
import { SecretPanel } from './secret.js';
import { disabledReason } from './words.js';

const endpointPath = (tenant: string, id: string) => tenantPath(tenant, `webhooks/${encodeURIComponent(id)}`);

/**
 * The tenant's webhook endpoints: status and why one is disabled, each URL the link to its page;
 * a manager or owner creates one here and sees its signing secret once.
 */
export function WebhooksScreen() {
  const { client, tenant, can } = useConsole();
  const { query } = useLocation();
  const cursor = query.cursor || undefined;
  const [creating, setCreating] = useState(false);
  // The one secret the API answered with. Never written anywhere else (no storage, no URL):
  // dismissing the panel drops it, and with it the only copy the page had.
  const [created, setCreated] = useState<{ id: string; url: string; secret: string }>();
  const list = useLoad(
    async () =>
      (await webhookEndpointsList({ client, path: { tenant_id: tenant }, query: { cursor, limit: 50 } }))
        .data,
    [tenant, cursor],
  );
  const managing = can('webhooks.manage');

  return (
    <section aria-labelledby="title">
      <h1 id="title">Webhook endpoints</h1>
      <p class="muted">
        Your systems hear this tenant's changes here, signed per Standard Webhooks. Each endpoint's page has
        its delivery log.
      </p>
      {created ? (
        <SecretPanel secret={created.secret} onDismiss={() => setCreated(undefined)}>
          <p>
            Created <a href={endpointPath(tenant, created.id)}>{created.url}</a>.
          </p>
        </SecretPanel>
      ) : null}
      {managing && !created ? (
        creating ? (
          <CreateForm
            onCancel={() => setCreating(false)}
            onCreated={(e) => {
              setCreating(false);
              setCreated(e);
              list.reload();
            }}
          />
        ) : (
          <p>
            <button type="button" onClick={() => setCreating(true)}>
              New endpoint
            </button>
          </p>
        )
      ) : null}
      <Listing list={list} empty="No webhook endpoints yet.">
        {(data) => (
          <>
            <table class="list" data-testid="webhook-endpoints">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Status</th>
                  <th scope="col">Events</th>
                  <th scope="col">Description</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={e.id}>
                    <td class="title mono">
                      <a href={endpointPath(tenant, e.id)}>{e.url}</a>
                    </td>
                    <td class="endpoint-status">
                      <Badge value={e.status} />
                      {e.status === 'disabled' ? <span class="muted"> {disabledReason(e)}</span> : null}
                    </td>
                    <td class="mono">{e.event_types.join(', ')}</td>
                    <td class="detail">{e.description ?? ''}</td>
                    <td>
                      <Time at={e.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={data.next_cursor} href={(c) => withQuery({ cursor: c })} />
          </>
        )}
      </Listing>
    </section>
  );
}

/** URL, description and the event types of the catalog, each with its description. */
function CreateForm({
  onCreated,
  onCancel,
}: {
  onCreated: (e: { id: string; url: string; secret: string }) => void;
  onCancel: () => void;
}) {
  const { client, tenant } = useConsole();
  const catalog = useLoad(async () => (await eventTypesList({ client })).data.items, []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const toggle = (type: string, on: boolean) =>
    setTypes((was) => {
      const next = new Set(was);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await webhookEndpointsCreate({
        client,
        path: { tenant_id: tenant },
        body: {
          url: url.trim(),
          description: description.trim() || null,
          event_types: [...types] as WebhookEventType[],
        },
      });
      onCreated({ id: data.id, url: data.url, secret: data.secret });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="webhook-form"
      aria-labelledby="new-endpoint"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id="new-endpoint">New endpoint</h2>
      {error ? <Problem error={error} /> : null}
      <div class="field">
        <label for="endpoint-url">URL</label>
        <input
          id="endpoint-url"
          name="url"
          type="url"
          value={url}
          maxLength={2048}
          placeholder="https://erp.example.com/hooks/ops"
          aria-describedby="endpoint-url-error"
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <FieldError error={error} path="url" id="endpoint-url-error" />
      </div>
      <div class="field">
        <label for="endpoint-description">Description</label>
        <input
          id="endpoint-description"
          name="description"
          value={description}
          maxLength={500}
          placeholder="What listens there (optional)"
          aria-describedby="endpoint-description-error"
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        <FieldError error={error} path="description" id="endpoint-description-error" />
      </div>
      <fieldset aria-describedby="event-types-error">
        <legend>Event types</legend>
        <FieldError error={error} path="event_types" id="event-types-error" />
        {catalog.state === 'loading' ? (
          <Loading />
        ) : catalog.state === 'error' ? (
          <Problem error={catalog.error} />
        ) : (
          <ul class="event-types">
            <li>
              <label class="check">
                <input
                  type="checkbox"
                  checked={types.has('*')}
                  aria-describedby="type-all"
                  onChange={(e) => toggle('*', e.currentTarget.checked)}
                />
                <span class="mono">*</span>
              </label>{' '}
              <span class="muted" id="type-all">
                every type, also those added later
              </span>
            </li>
            {catalog.data.map((t) => (
              <li key={t.type}>
                <label class="check">
                  <input
                    type="checkbox"
                    checked={types.has(t.type)}
                    aria-describedby={`type-${t.type}`}
                    onChange={(e) => toggle(t.type, e.currentTarget.checked)}
                  />
                  <span class="mono">{t.type}</span>
                </label>{' '}
                <span class="muted" id={`type-${t.type}`}>
                  {t.description}
                </span>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <button type="submit" class="primary" disabled={busy}>
        Create endpoint
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
