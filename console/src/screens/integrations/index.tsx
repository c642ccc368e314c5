import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import {
  type AdapterContractRead,
  adaptersList,
  integrationConnectionsCreate,
  integrationConnectionsList,
} from '../../../../clients/typescript/index.js';
import { tenantPath, useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, Problem } from '../../ui/problem.js';
import { Badge, Listing, Pager, Time, withQuery } from '../../ui/table.js';
import { byConsent, FreshnessText, HealthState, secretFields } from './health.js';

/**
 * The tenant's connections with their health and freshness, and the adapter catalog with what
 * each adapter needs; a manager adds a connection from the catalog (`?new=<adapter>`).
 */
export function IntegrationsScreen() {
  const { client, tenant, can } = useConsole();
  const { query } = useLocation();
  const cursor = query.cursor || undefined;
  const catalog = useLoad(async () => (await adaptersList({ client })).data, []);
  const connections = useLoad(
    async () =>
      (
        await integrationConnectionsList({
          client,
          path: { tenant_id: tenant },
          query: { cursor, limit: 50 },
        })
      ).data,
    [tenant, cursor],
  );
  const adapters = new Map((catalog.data?.items ?? []).map((a) => [a.key, a]));
  const adding = query.new ? adapters.get(query.new) : undefined;

  return (
    <section aria-labelledby="title">
      <h1 id="title">Integrations</h1>
      {adding && can('integrations.manage') ? <NewConnection adapter={adding} key={adding.key} /> : null}
      <h2>Connections</h2>
      <Listing list={connections} empty="No connections yet. Add one from the catalog below.">
        {(data) => (
          <>
            <table class="list" data-testid="connections">
              <thead>
                <tr>
                  <th scope="col">Connection</th>
                  <th scope="col">Adapter</th>
                  <th scope="col">Status</th>
                  <th scope="col">Health</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Freshness</th>
                  <th scope="col">Open issues</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((c) => (
                  <tr key={c.id}>
                    <td class="title">
                      <a href={tenantPath(tenant, `integrations/${encodeURIComponent(c.id)}`)}>{c.name}</a>
                    </td>
                    <td>{adapters.get(c.adapter_key)?.name ?? <span class="mono">{c.adapter_key}</span>}</td>
                    <td>
                      <Badge value={c.status} />
                    </td>
                    <td>
                      <HealthState c={c} />
                    </td>
                    <td>
                      <Time at={c.health.last_success_at} />
                    </td>
                    <td>
                      <FreshnessText c={c} category={adapters.get(c.adapter_key)?.category} />
                    </td>
                    <td>{c.health.open_issues || <span class="muted">0</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={data.next_cursor} href={(c) => withQuery({ cursor: c })} />
          </>
        )}
      </Listing>
      <h2>Adapter catalog</h2>
      <Listing list={catalog} empty="The catalog is empty.">
        {(data) => (
          <table class="list catalog" data-testid="catalog">
            <thead>
              <tr>
                <th scope="col">Adapter</th>
                <th scope="col">Category</th>
                <th scope="col">What it does</th>
                <th scope="col">What it needs</th>
                {can('integrations.manage') ? (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {data.items.map((a) => (
                <tr key={a.key}>
                  <td class="title">
                    {a.name} <span class="mono muted">{a.key}</span>{' '}
                    {a.status === 'available' ? null : <Badge value={a.status} />}
                  </td>
                  <td>{a.category.replaceAll('_', ' ')}</td>
                  <td class="detail">{a.purpose}</td>
                  <td class="detail">
                    <Needs a={a} />
                  </td>
                  {can('integrations.manage') ? (
                    <td class="row-actions">
                      <a href={withQuery({ new: a.key })} aria-label={`Add a ${a.name} connection`}>
                        Add
                      </a>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </section>
  );
}

/** What a connection of the adapter must be given: consent or secret, config fields, mapping keys. */
function Needs({ a }: { a: AdapterContractRead }) {
  const required = (a.config_schema as { required?: unknown } | undefined)?.required;
  const config = Array.isArray(required) ? required.map(String) : [];
  const secrets = secretFields(a);
  return (
    <ul class="needs">
      <li>
        {byConsent(a)
          ? 'The organisation’s consent (OAuth 2: Connect on the connection’s page)'
          : secrets.length > 0
            ? `Secret: ${secrets.join(', ')}`
            : 'No secret (sent under the service’s own role)'}
      </li>
      {config.length > 0 ? <li>Config: {config.join(', ')}</li> : null}
      {a.required_mapping_keys?.length ? <li>Mapping: {a.required_mapping_keys.join(', ')}</li> : null}
    </ul>
  );
}

/** The config example without what the provider's consent fills in (Xero's organisation, QuickBooks' realm). */
const configStart = (a: AdapterContractRead) => {
  const { organisation_id: _o, realm_id: _r, ...rest } = (a.config_example ?? {}) as Record<string, unknown>;
  return JSON.stringify(byConsent(a) ? rest : (a.config_example ?? {}), null, 2);
};

/**
 * A new connection of one adapter. Its secret is typed here, sent once, and never shown again:
 * the API keeps it write-only, and the form forgets it as soon as the answer comes.
 */
function NewConnection({ adapter }: { adapter: AdapterContractRead }) {
  const { client, tenant } = useConsole();
  const { route } = useLocation();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const secrets = secretFields(adapter);

  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (k: string) => String(data.get(k) ?? '').trim();
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(text('config') || '{}') as Record<string, unknown>;
    } catch {
      setError(new SyntaxError('config'));
      return;
    }
    const hours = (k: string) => (text(k) ? Number(text(k)) : undefined);
    const secret = Object.fromEntries(secrets.map((f) => [f, String(data.get(`secret.${f}`) ?? '')]));
    // The typed secret leaves the page with the request, whatever the answer.
    for (const f of secrets) (form.elements.namedItem(`secret.${f}`) as HTMLInputElement).value = '';
    setBusy(true);
    setError(undefined);
    try {
      const { data: created } = await integrationConnectionsCreate({
        client,
        path: { tenant_id: tenant },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        body: {
          adapter_key: adapter.key,
          name: text('name'),
          config,
          ...(secrets.length > 0 ? { secret } : {}),
          schedule: {
            diagnostics_every_hours: hours('diagnostics_every_hours'),
            reconciliation_every_hours: hours('reconciliation_every_hours'),
          },
        },
      });
      route(tenantPath(tenant, `integrations/${encodeURIComponent(created.id)}`));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="prefs new-connection"
      aria-labelledby="new-title"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(e.currentTarget);
      }}
    >
      <fieldset>
        <legend id="new-title">New {adapter.name} connection</legend>
        <div class="field">
          <label for="new-name">Name</label>
          <input
            id="new-name"
            name="name"
            required
            minLength={2}
            maxLength={120}
            aria-describedby="new-name-error"
          />
          <FieldError error={error} path="name" id="new-name-error" />
        </div>
        <div class="field">
          <label for="new-config">Config (JSON)</label>
          <textarea id="new-config" name="config" rows={5} class="mono" aria-describedby="new-config-error">
            {configStart(adapter)}
          </textarea>
          {error instanceof SyntaxError ? (
            <span class="field-error" id="new-config-error" role="alert">
              Config must be a JSON object.
            </span>
          ) : (
            <FieldError error={error} path="config" id="new-config-error" />
          )}
        </div>
        {secrets.map((f) => (
          <div class="field" key={f}>
            <label for={`new-secret-${f}`}>Secret: {f}</label>
            <input
              id={`new-secret-${f}`}
              name={`secret.${f}`}
              type="password"
              autoComplete="off"
              aria-describedby={`new-secret-${f}-error`}
            />
            <FieldError error={error} path={`secret.${f}`} id={`new-secret-${f}-error`} />
          </div>
        ))}
        <ScheduleFields error={error} prefix="new" />
        <div class="row-actions">
          <button type="submit" class="primary" disabled={busy}>
            Create connection
          </button>{' '}
          <a href={withQuery({ new: undefined })}>Cancel</a>
        </div>
        {byConsent(adapter) ? (
          <p class="muted">After it is created, connect it to {adapter.name} from its page.</p>
        ) : null}
        {error && !(error instanceof SyntaxError) ? <Problem error={error} /> : null}
      </fieldset>
    </form>
  );
}

/** Every N hours (1 to 168), empty for none: the connection's scheduled diagnostics and reconciliation. */
export function ScheduleFields({
  error,
  prefix,
  value,
}: {
  error: unknown;
  prefix: string;
  value?: { diagnostics_every_hours?: number; reconciliation_every_hours?: number } | null;
}) {
  return (
    <>
      {(['diagnostics_every_hours', 'reconciliation_every_hours'] as const).map((k) => (
        <div class="field" key={k}>
          <label for={`${prefix}-${k}`}>
            {k === 'diagnostics_every_hours' ? 'Diagnostics every (hours)' : 'Reconciliation every (hours)'}
          </label>
          <input
            id={`${prefix}-${k}`}
            name={k}
            type="number"
            min={1}
            max={168}
            placeholder="none"
            defaultValue={value?.[k] === undefined ? '' : String(value[k])}
            aria-describedby={`${prefix}-${k}-error`}
          />
          <FieldError error={error} path={`schedule.${k}`} id={`${prefix}-${k}-error`} />
        </div>
      ))}
    </>
  );
}
