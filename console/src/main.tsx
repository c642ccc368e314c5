import { render } from 'preact';
import { LocationProvider, Route, Router, useLocation, useRoute } from 'preact-iso';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { type AuthMeRead, inboxSummary, tenantsList } from '../../clients/typescript/index.js';
import { ConsoleContext, consoleFor, tenantPath } from './app-context.js';
import { AuditScreen } from './screens/audit/index.js';
import { ConnectionScreen } from './screens/connection/index.js';
import { ReconciliationRunScreen } from './screens/connection/run.js';
import { ExceptionDetail } from './screens/exception-detail/index.js';
import { ExceptionsScreen } from './screens/exceptions/index.js';
import { InboxScreen } from './screens/inbox/index.js';
import { OperationsScreen } from './screens/operations/index.js';
import { IntegrationsScreen } from './screens/integrations/index.js';
import { PreferencesScreen } from './screens/preferences/index.js';
import { ReviewScreen } from './screens/review/index.js';
import { RuleEditScreen } from './screens/rule/form.js';
import { RuleScreen } from './screens/rule/index.js';
import { RulesScreen } from './screens/rules/index.js';
import { RunScreen } from './screens/run/index.js';
import { SignIn } from './screens/sign-in/index.js';
import { TasksScreen } from './screens/tasks/index.js';
import { WebhookEndpointScreen } from './screens/webhook-endpoint/index.js';
import { WebhooksScreen } from './screens/webhooks/index.js';
import { TimersScreen } from './screens/timers/index.js';
import { apiBaseUrl, createClient, hasToken, loadMe, signOut, whenSignedOut } from './session.js';
import { Problem } from './ui/problem.js';
import { Loading } from './ui/table.js';

const client = createClient(await apiBaseUrl());

/**
 * The screens of one tenant in the nav, one folder each under screens/ (its route, data and view):
 * the day's work first, then what connects the tenant to other systems, then the records about
 * them. A screen whose permission the member lacks is not offered.
 */
const SCREENS = [
  { path: 'exceptions', label: 'Exceptions' },
  { path: 'tasks', label: 'Tasks' },
  { path: 'review', label: 'Review queue' },
  { path: 'inbox', label: 'Inbox' },
  { path: 'rules', label: 'Rules' },
  { path: 'timers', label: 'Timers' },
  { path: 'webhooks', label: 'Webhooks' },
  { path: 'integrations', label: 'Integrations' },
  { path: 'audit', label: 'Audit log', permission: 'audit.read' as const },
  { path: 'preferences', label: 'Preferences' },
  { path: 'operations', label: 'Operations', permission: 'platform.admin' as const },
];

function App() {
  const { route, path } = useLocation();
  // undefined: not known yet; null: signed out.
  const [me, setMe] = useState<AuthMeRead | null | undefined>(hasToken() ? undefined : null);
  const [meError, setMeError] = useState<unknown>();

  useEffect(() => {
    whenSignedOut(() => {
      setMe(null);
      route(signInPath());
    });
  }, [route]);

  const signedIn = useCallback(() => {
    setMe(undefined);
    loadMe(client).then(setMe, setMeError);
  }, []);
  useEffect(() => {
    if (hasToken()) loadMe(client).then(setMe, setMeError);
  }, []);

  if (me === null && path !== '/console/sign-in') {
    route(signInPath(), true);
    return null;
  }
  if (me === undefined && path !== '/console/sign-in')
    return <main id="main">{meError ? <Problem error={meError} /> : <Loading />}</main>;

  return (
    <Router>
      <Route path="/console/sign-in" component={SignIn} client={client} onSignedIn={signedIn} />
      <Route path="/console/t/:tenant/*" component={TenantShell} me={me!} />
      <Route default component={Home} me={me!} />
    </Router>
  );
}

/** Sign-in, then back here (a deep link, or the page a revoked session was on). */
function signInPath(): string {
  const here = location.pathname + location.search;
  return `/console/sign-in${here.startsWith('/console/t/') ? `?next=${encodeURIComponent(here)}` : ''}`;
}

/** `/console/`: the first tenant's exceptions. */
function Home({ me }: { me: AuthMeRead }) {
  const { route } = useLocation();
  const [none, setNone] = useState(false);
  useEffect(() => {
    const first = me.memberships[0]?.tenant_id;
    if (first) return route(tenantPath(first, 'exceptions'), true);
    // A platform admin may be a member of no tenant: the first tenant it sees.
    tenantsList({ client, query: { limit: 1 } }).then(
      ({ data }) => (data.items[0] ? route(tenantPath(data.items[0].id, 'exceptions'), true) : setNone(true)),
      () => setNone(true),
    );
  }, [me, route]);
  return (
    <main id="main">{none ? <p class="empty">You are not a member of any tenant yet.</p> : <Loading />}</main>
  );
}

function TenantShell({ me }: { me: AuthMeRead }) {
  const { params } = useRoute();
  const tenant = params.tenant!;
  const { route, path } = useLocation();
  const [unread, setUnread] = useState<number | undefined>();
  const [round, setRound] = useState(0);
  const refreshUnread = useCallback(() => setRound((r) => r + 1), []);
  const value = useMemo(() => consoleFor(client, me, tenant, refreshUnread), [me, tenant, refreshUnread]);
  const [tenants, setTenants] = useState(() =>
    me.memberships.map((m) => ({ id: m.tenant_id, name: m.tenant_name })),
  );

  useEffect(() => {
    if (!me.platform_roles?.includes('platform_admin')) return;
    tenantsList({ client, query: { limit: 100 } }).then(
      ({ data }) => setTenants(data.items.map((t) => ({ id: t.id, name: t.name }))),
      () => undefined,
    );
  }, [me]);
  useEffect(() => {
    inboxSummary({ client, path: { tenant_id: tenant } }).then(
      ({ data }) => setUnread(data.unread),
      () => setUnread(undefined),
    );
  }, [tenant, round, path]);

  // A record's page lights its list's entry: a run is found from its rule.
  const at = path.split('/')[4] ?? 'exceptions';
  const screen = at === 'runs' ? 'rules' : at;
  const switchTenant = (next: string) => route(tenantPath(next, screen === 'audit' ? 'exceptions' : screen));
  const known = tenants.some((t) => t.id === tenant);

  return (
    <ConsoleContext.Provider value={value}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">ops-platform</span>
        <label class="tenant">
          <span class="visually-hidden">Tenant</span>
          <select value={tenant} onChange={(e) => switchTenant(e.currentTarget.value)}>
            {known ? null : <option value={tenant}>{tenant}</option>}
            {tenants.map((t) => (
              <option value={t.id} key={t.id}>
                {t.name} ({t.id})
              </option>
            ))}
          </select>
        </label>
        <nav aria-label="Screens">
          {SCREENS.filter((s) => !s.permission || value.can(s.permission)).map((s) => (
            <a
              key={s.path}
              href={tenantPath(tenant, s.path)}
              aria-current={screen === s.path ? 'page' : undefined}
              data-unread={s.path === 'inbox' ? unread : undefined}
            >
              {s.label}
              {s.path === 'inbox' && unread ? (
                <span class="count" aria-label={`${unread} unread`}>
                  {unread}
                </span>
              ) : null}
            </a>
          ))}
        </nav>
        <span class="who">
          {me.user.display_name} <span class="muted">{roleLabel(me, tenant)}</span>
        </span>
        <button type="button" onClick={() => void signOut(client)}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {/* A new screen (not a new filter: the query is not the path) takes the focus to its
            content, so a keyboard's next Tab starts there rather than at the top of the page. */}
        <Router onRouteChange={() => document.getElementById('main')?.focus()}>
          <Route path="/exceptions" component={ExceptionsScreen} />
          <Route path="/exceptions/:id" component={ExceptionDetail} />
          <Route path="/tasks" component={TasksScreen} />
          <Route path="/review" component={ReviewScreen} />
          <Route path="/inbox" component={InboxScreen} />
          <Route path="/integrations" component={IntegrationsScreen} />
          <Route path="/integrations/:id" component={ConnectionScreen} />
          <Route path="/integrations/:id/runs/:run" component={ReconciliationRunScreen} />
          <Route path="/preferences" component={PreferencesScreen} />
          <Route path="/audit" component={AuditScreen} />
          <Route path="/operations" component={OperationsScreen} />
          <Route path="/webhooks" component={WebhooksScreen} />
          <Route path="/webhooks/:id" component={WebhookEndpointScreen} />
          <Route path="/rules" component={RulesScreen} />
          <Route path="/rules/new" component={RuleEditScreen} />
          <Route path="/rules/:id" component={RuleScreen} />
          <Route path="/rules/:id/edit" component={RuleEditScreen} />
          {/* A run's page without its id (a tenant switched on a run's page): the rules, whose runs they are. */}
          <Route path="/runs" component={RulesScreen} />
          <Route path="/runs/:id" component={RunScreen} />
          <Route path="/timers" component={TimersScreen} />
          <Route default component={NoSuchScreen} />
        </Router>
      </main>
    </ConsoleContext.Provider>
  );
}

const NoSuchScreen = () => <p class="empty">There is no such screen.</p>;

const roleLabel = (me: AuthMeRead, tenant: string) =>
  me.memberships.find((m) => m.tenant_id === tenant)?.role ??
  (me.platform_roles?.includes('platform_admin') ? 'platform admin' : '');

render(
  <LocationProvider scope="/console">
    <App />
  </LocationProvider>,
  document.getElementById('app')!,
);
