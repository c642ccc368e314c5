import * as z from 'zod';
import { NOTIFICATION_CHANNELS, NotificationChannel } from '#shared/api/schemas/notifications';

/**
 * What every schema of the public demo records (docs/api.md section 8) is made of. Every record is
 * camelCase, has `status: "previewed"`, a `command` that fetches it, an `api` map (name ->
 * "METHOD /path") and `docs` (title and path of each document that explains it). Objects are
 * strict, so a payload cannot carry a field the OpenAPI document does not describe.
 */

export const text = z.string().min(1);
export const names = z.array(text);
export const row = z.strictObject;
export const nullableText = z.union([text, z.null()]);

export const DemoStatus = z.literal('previewed');
export const DemoApi = z
  .record(z.string(), z.string())
  .meta({ description: 'What to call: a name mapped to "METHOD /path".' });
export const DemoDocs = z
  .array(z.record(z.string(), z.string()))
  .meta({ description: 'Documents that explain the record: each a map with `title` and `path`.' });

export const demoBase = {
  status: DemoStatus,
  command: text.meta({ description: 'A shell command that fetches this record from the local runtime.' }),
  api: DemoApi,
  docs: DemoDocs,
};

export const DemoSummaryCard = row({ label: text, value: text, detail: text }).meta({
  id: 'DemoSummaryCard',
  description: 'One headline figure of a demo record.',
});
export const summary = z.array(DemoSummaryCard);

export const DemoTenant = row({
  id: text,
  name: text,
  industry: text,
  region: text,
  sites: names,
  fictional: z.literal(true),
}).meta({ id: 'DemoTenant', description: 'The one fictional tenant all demo records describe.' });

export const DemoDataBoundary = row({ boundary: text, publicSurface: text, privateServerSide: text }).meta({
  id: 'DemoDataBoundary',
  description: 'What the public surface shows, and what stays private on the server.',
});
export const dataBoundaries = z.array(DemoDataBoundary);

// The channel enum is the API's own (shared/api/schemas/notifications.ts): the demo describes it.
export { NOTIFICATION_CHANNELS, NotificationChannel };
export const channelList = z.array(NotificationChannel);
