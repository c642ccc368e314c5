/**
 * Reading the demo page back as data, and what it must show for an API body. The page's
 * protocol (demo-static/app.js): every rendered value sits in an element with
 * `data-field="<JSON path>"` and a `data-kind`; tables have `[data-row]` rows of `[data-key]`
 * cells, objects `[data-key]` entries; a cell holds text, a `[data-list]` of `[data-item]`s, or
 * (`[data-nested]`) the element of a longer path. `[data-caption]` marks labels.
 */

export type Cell = string | string[] | { nested: true };
export type Field =
  | { kind: 'scalar'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; rows: Record<string, Cell>[] }
  | { kind: 'object'; entries: Record<string, Cell> }
  | { kind: 'same-as'; target: string };

/** Runs in the page: `{ [operationId]: { [path]: Field } }` for every `section[data-demo]`. */
export const READ_PAGE_FIELDS = `(() => {
  const text = (node) => {
    const clone = node.cloneNode(true);
    clone.querySelectorAll('[data-caption]').forEach((n) => n.remove());
    return clone.textContent.trim();
  };
  const items = (node) => [...node.querySelectorAll('[data-item]')].map((n) => n.textContent.trim());
  const cell = (node) => {
    if (node.hasAttribute('data-nested')) return { nested: true };
    const list = [...node.querySelectorAll('[data-list]')].find((l) => l.closest('[data-key]') === node);
    return list ? items(list) : text(node);
  };
  const own = (field, selector) => [...field.querySelectorAll(selector)].filter((n) => n.closest('[data-field]') === field);
  const out = {};
  for (const section of document.querySelectorAll('section[data-demo]')) {
    const fields = {};
    for (const field of section.querySelectorAll('[data-field]')) {
      const path = field.dataset.field;
      if (path in fields) throw new Error('two elements for ' + path);
      const kind = field.dataset.kind;
      if (kind === 'scalar') fields[path] = { kind, text: text(field) };
      else if (kind === 'list') fields[path] = { kind, items: items(field) };
      else if (kind === 'same-as') fields[path] = { kind, target: field.dataset.sameAs };
      else if (kind === 'object') {
        const entries = {};
        for (const e of own(field, '[data-key]')) entries[e.dataset.key] = cell(e);
        fields[path] = { kind, entries };
      } else if (kind === 'table') {
        const rows = own(field, '[data-row]').map((row) => {
          const r = {};
          for (const c of own(field, '[data-key]').filter((c) => c.closest('[data-row]') === row)) {
            if (!c.hasAttribute('data-absent')) r[c.dataset.key] = cell(c);
          }
          return r;
        });
        fields[path] = { kind, rows };
      } else throw new Error('unknown kind ' + kind + ' at ' + path);
    }
    out[section.dataset.demo] = fields;
  }
  return out;
})()`;

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isTable = (v: unknown): v is Record<string, unknown>[] =>
  Array.isArray(v) && v.length > 0 && v.every(isObject);
const isList = (v: unknown): v is unknown[] => Array.isArray(v) && v.every(isScalar);

/** How the page writes a scalar. */
export const display = (v: unknown): string =>
  v === null ? '—' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);

/**
 * The fields the page must show for a demo record. `sameAs` names embedded records that equal
 * another demo record (key -> that record's operation id): the page links those instead.
 */
export function expectedPageFields(record: Record<string, unknown>, sameAs: Record<string, string> = {}) {
  const out: Record<string, Field> = {};
  const cell = (v: unknown, path: string): Cell => {
    if (isScalar(v)) return display(v);
    if (isList(v)) return v.map(display);
    node(v, path);
    return { nested: true };
  };
  const node = (v: unknown, path: string) => {
    if (isTable(v)) {
      out[path] = {
        kind: 'table',
        rows: v.map((row, i) =>
          Object.fromEntries(Object.entries(row).map(([k, x]) => [k, cell(x, `${path}.${i}.${k}`)])),
        ),
      };
    } else if (isList(v)) out[path] = { kind: 'list', items: v.map(display) };
    else if (isObject(v)) {
      out[path] = {
        kind: 'object',
        entries: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cell(x, `${path}.${k}`)])),
      };
    } else out[path] = { kind: 'scalar', text: display(v) };
  };
  const fields = (r: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(r)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (!prefix && sameAs[k]) out[path] = { kind: 'same-as', target: sameAs[k]! };
      else if (isObject(v) && Object.values(v).some((x) => !isScalar(x) && !isList(x))) fields(v, path);
      else node(v, path);
    }
  };
  fields(record, '');
  return out;
}
