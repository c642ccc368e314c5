import type * as z from 'zod';
import { OPERATIONS, type OperationId } from '#shared/api/manifest';
import type { DemoDataBoundary, DemoTenant } from './schemas';

/**
 * What every demo record shares: the one fictional tenant, the command that fetches a record from
 * the local runtime, and the data boundaries of the public surface. Everything in `shared/demo/`
 * is synthetic: no person, address, credential or provider payload appears anywhere.
 */

export const LOCAL_BASE_URL = 'http://127.0.0.1:3000';

export const fetchCommand = (path: string): string => `curl -s ${LOCAL_BASE_URL}${path}`;

/**
 * An operation as a demo record's `api` column names it, `METHOD /path`, read from the operations
 * manifest so that the demo never names a route the API does not have. Paths keep `{tenant_id}`:
 * there is no tenant to fill in.
 */
export const call = (id: OperationId): string => `${OPERATIONS[id].method} ${OPERATIONS[id].path}`;

/** The command that fetches a demo route from the local runtime. */
export const demoCommand = (id: OperationId): string => fetchCommand(OPERATIONS[id].path);

export const DEMO_TENANT: z.output<typeof DemoTenant> = {
  id: 'alder-creek-supply',
  name: 'Alder Creek Supply Co.',
  industry: 'Building materials wholesale',
  region: 'Pacific Northwest (fictional)',
  sites: ['North Yard', 'River Depot', 'Hillside Branch'],
  fictional: true,
};

/** Fictional source systems of the demo tenant; the names are invented for the demo. */
export const SOURCE_SYSTEMS = {
  accounting: 'LedgerLine (accounting, fictional)',
  inventory: 'StockPilot (inventory, fictional)',
  bank: 'PayBridge (bank feed, fictional)',
  sms: 'TextHarbor (SMS gateway, fictional)',
} as const;

export const DOC = {
  demo: { title: 'Demo surface and clients', path: 'docs/demo-and-clients.md' },
  delivery: {
    title: 'Notification delivery contract',
    path: 'docs/demo-and-clients.md#notification-delivery-contract',
  },
  walkthroughs: { title: 'Demo walkthroughs', path: 'docs/demo-and-clients.md#walkthroughs' },
  openapi: { title: 'OpenAPI 3.1 description', path: 'generated/openapi.json' },
} as const;

export const runbookPath = (alarm: string): string => `runbooks/${alarm}.md`;

type Boundary = z.output<typeof DemoDataBoundary>;

/** The rules of docs/api.md section 8, as the demo states them; each record adds its own rows. */
export const PUBLIC_BOUNDARIES: Boundary[] = [
  {
    boundary: 'Provider credentials',
    publicSurface: 'Never shown; a connection only reports whether it is configured.',
    privateServerSide:
      'Held in private server-side connector configuration, read by the worker at send time.',
  },
  {
    boundary: 'Recipients',
    publicSurface: 'Audiences by role (for example "managers of North Yard"), never an address or number.',
    privateServerSide: 'Resolved from tenant membership and connection settings when the worker sends.',
  },
  {
    boundary: 'Provider traffic',
    publicSurface: 'Outcomes and normalized field names only.',
    privateServerSide: 'Raw provider payloads and request bodies stay inside the worker and are not stored.',
  },
  {
    boundary: 'Browser',
    publicSurface: 'Static JSON over GET; the demo page keeps no tokens and no storage, and sends nothing.',
    privateServerSide: 'Sessions and bearer tokens exist only for the authenticated API.',
  },
];
