/**
 * Renders every demo record of ./data/ as cards and tables. Plain DOM, no dependencies, no
 * storage, no requests beyond ./data/*.json. Text goes in through textContent only.
 *
 * Every rendered value carries its JSON path so a test can read the page back and compare it
 * with the API: an element with `data-field="<path>"` and `data-kind` of
 *   - `scalar` (its text),
 *   - `list` (an array of scalars: one `[data-item]` per element),
 *   - `table` (an array of objects: `[data-row]` rows of `[data-key]` cells),
 *   - `object` (`[data-key]` entries).
 * A cell or entry holding a scalar shows its text, one holding an array of scalars shows
 * `[data-item]`s, and one holding anything else is `[data-nested]` and contains the element with
 * the longer path. Labels inside a cell or entry are `[data-caption]`, not part of the value.
 * Booleans show as yes/no, null as an em dash, numbers as written. A record field whose value is
 * an object holding arrays or objects is drawn as a sub-record: its fields get their own paths.
 */

const LABELS = {
  api: 'API',
  docs: 'Documents',
  dataBoundaries: 'Data boundaries',
  maxBodyChars: 'Max body (chars)',
  latencyMs: 'Latency (ms)',
  durationMs: 'Duration (ms)',
  logEvents: 'Log events',
  logEvent: 'Log event',
  deadLetterQueue: 'Dead-letter queue',
  deadLetters: 'Dead-letter routing',
  retryRouting: 'Retry routing',
  reviewPath: 'Operator review path',
  providerGates: 'Provider gates',
  outboxEvent: 'Outbox event',
  sourceSystems: 'Source systems',
  idempotencyKey: 'Idempotency key',
  gateState: 'Gate',
  usedFor: 'Used by rules',
};

/** Values that get a coloured pill (the whole value, or its first word before ":" or "("). */
const TONES = [
  ['good', 'passed matched delivered done open enforced approved certified allowed yes active resolved'],
  ['warn', 'warning pending retrying waiting acknowledged drift onboarding'],
  ['bad', 'failed blocked rejected closed critical dead_lettered gated no'],
  ['info', 'info internal external automatic previewed'],
].map(([tone, words]) => [new RegExp(`^(${words.split(' ').join('|')})(?=$|[:;]|\\s\\()`, 'i'), tone]);

/** Tables with more columns than this show each row as a card. */
const MAX_TABLE_COLUMNS = 7;

const STEP_KEYS = ['deliveryPath', 'walkthrough', 'reviewPath', 'timeline'];
const FOOTER_KEYS = ['dataBoundaries', 'api', 'docs'];
const HEADER_KEYS = ['status', 'command', 'title', 'tagline', 'summary'];

const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isTable = (v) => Array.isArray(v) && v.length > 0 && v.every(isObject);
const isList = (v) => Array.isArray(v) && v.every(isScalar);

export const formatScalar = (v) =>
  v === null ? '—' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);

const humanize = (key) => {
  if (LABELS[key]) return LABELS[key];
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function scalarNode(value) {
  const text = formatScalar(value);
  const tone =
    typeof value === 'string' || typeof value === 'boolean' ? TONES.find(([re]) => re.test(text)) : null;
  if (tone && text.length <= 48) return el('span', { class: `pill pill-${tone[1]}`, text });
  if (typeof value === 'string' && /^\/demo\/[a-z-]+$/.test(value)) {
    return el('a', { href: `#demo-${value.slice(6)}`, text });
  }
  if (typeof value === 'string' && /^(GET|POST|PUT|PATCH|DELETE) \//.test(value)) {
    return el('code', { class: 'http', text });
  }
  return document.createTextNode(text);
}

function listNode(values, attrs = {}) {
  const list = el('span', { class: 'chips', 'data-list': true, ...attrs });
  if (values.length === 0) list.append(el('span', { class: 'muted', text: 'none' }));
  for (const v of values) {
    const text = formatScalar(v);
    list.append(
      el('span', { class: text.length <= 32 ? 'chip chip-short' : 'chip', 'data-item': true, text }),
    );
  }
  return list;
}

/** A cell or entry: scalar text, chips, or the nested element for a longer path. */
function cellContent(value, path) {
  if (isScalar(value)) return { node: scalarNode(value) };
  if (isList(value)) return { node: listNode(value) };
  return { node: render(value, path), nested: true };
}

/** A wide table: one card per row, the first column as the card's heading. */
function rowCardsNode(rows, path, columns) {
  const grid = el('div', { class: 'row-cards', 'data-field': path, 'data-kind': 'table' });
  rows.forEach((row, i) => {
    const card = el('article', { class: 'row-card', 'data-row': i });
    columns.forEach((c, n) => {
      const { node, nested } = c in row ? cellContent(row[c], `${path}.${i}.${c}`) : { node: null };
      if (!node) return;
      if (n === 0) {
        card.append(el('h4', { 'data-key': c, 'data-nested': nested }, node));
        return;
      }
      card.append(
        el(
          'div',
          { class: 'row-card-field', 'data-key': c, 'data-nested': nested },
          el('span', { class: 'step-label', 'data-caption': true, text: humanize(c) }),
          node,
        ),
      );
    });
    grid.append(card);
  });
  return grid;
}

function tableNode(rows, path) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (columns.length > MAX_TABLE_COLUMNS) return rowCardsNode(rows, path, columns);
  const table = el('table', { class: 'data', 'data-field': path, 'data-kind': 'table' });
  table.append(
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: humanize(c) })))),
  );
  const body = el('tbody');
  rows.forEach((row, i) => {
    const tr = el('tr', { 'data-row': i });
    for (const c of columns) {
      const td = el('td', { 'data-key': c, 'data-label': humanize(c) });
      if (c in row) {
        const { node, nested } = cellContent(row[c], `${path}.${i}.${c}`);
        if (nested) td.setAttribute('data-nested', '');
        td.append(node);
      } else {
        td.setAttribute('data-absent', '');
      }
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(body);
  return el('div', { class: 'table-wrap' }, table);
}

function objectNode(obj, path) {
  const dl = el('dl', { class: 'kv', 'data-field': path, 'data-kind': 'object' });
  for (const [k, v] of Object.entries(obj)) {
    const { node, nested } = cellContent(v, `${path}.${k}`);
    dl.append(
      el(
        'div',
        { class: 'kv-row', 'data-key': k, 'data-nested': nested },
        el('dt', { 'data-caption': true, text: humanize(k) }),
        el('dd', {}, node),
      ),
    );
  }
  return dl;
}

/** Numbered steps (`step` column or array order) as a vertical timeline. */
function stepsNode(rows, path) {
  const [titleKey] = ['stage', 'title', 'action'].filter((k) => k in rows[0]);
  const ol = el('ol', { class: 'steps', 'data-field': path, 'data-kind': 'table' });
  rows.forEach((row, i) => {
    const li = el('li', { 'data-row': i });
    const number = 'step' in row ? row.step : i + 1;
    li.append(el('span', { class: 'step-no', 'aria-hidden': 'true', text: String(number) }));
    const bodyNode = el('div', { class: 'step-body' });
    for (const [k, v] of Object.entries(row)) {
      const { node, nested } = cellContent(v, `${path}.${i}.${k}`);
      if (k === titleKey) {
        bodyNode.prepend(el('h4', { 'data-key': k }, node));
      } else if (k === 'step') {
        bodyNode.append(el('span', { class: 'sr-only', 'data-key': k }, node));
      } else {
        bodyNode.append(
          el(
            'div',
            { class: 'step-field', 'data-key': k, 'data-nested': nested },
            el('span', { class: 'step-label', 'data-caption': true, text: humanize(k) }),
            node,
          ),
        );
      }
    }
    li.append(bodyNode);
    ol.append(li);
  });
  return ol;
}

function cardsNode(rows, path) {
  const grid = el('div', { class: 'cards', 'data-field': path, 'data-kind': 'table' });
  rows.forEach((row, i) => {
    grid.append(
      el(
        'div',
        { class: 'card', 'data-row': i },
        el('div', { class: 'card-label', 'data-key': 'label', text: row.label }),
        el('div', { class: 'card-value', 'data-key': 'value', text: row.value }),
        el('div', { class: 'card-detail', 'data-key': 'detail', text: row.detail }),
      ),
    );
  });
  return grid;
}

function render(value, path) {
  const key = path.split('.').pop();
  if (isTable(value)) return STEP_KEYS.includes(key) ? stepsNode(value, path) : tableNode(value, path);
  if (isList(value)) return listNode(value, { 'data-field': path, 'data-kind': 'list' });
  if (isObject(value)) return objectNode(value, path);
  return el('span', { 'data-field': path, 'data-kind': 'scalar' }, scalarNode(value));
}

function block(key, value, path) {
  const heading = el('h3', { text: humanize(key) });
  if (isObject(value) && Object.values(value).some((v) => !isScalar(v) && !isList(v))) {
    // A record inside a record (for example /demo/public's previews): its own sub-section.
    return el('section', { class: 'subrecord' }, heading, recordBody(value, path));
  }
  return el('div', { class: 'block' }, heading, render(value, path));
}

function apiNode(api, path) {
  const dl = el('dl', { class: 'kv api', 'data-field': path, 'data-kind': 'object' });
  for (const [name, call] of Object.entries(api)) {
    dl.append(
      el(
        'div',
        { class: 'kv-row', 'data-key': name },
        el('dt', { 'data-caption': true, text: name }),
        el('dd', {}, el('code', { class: 'http', text: call })),
      ),
    );
  }
  return dl;
}

function docsNode(docs, path) {
  const ul = el('ul', { class: 'docs', 'data-field': path, 'data-kind': 'table' });
  docs.forEach((doc, i) => {
    const li = el('li', { 'data-row': i });
    for (const [k, v] of Object.entries(doc)) {
      li.append(
        k === 'title' ? el('span', { 'data-key': k, text: v }) : el('code', { 'data-key': k, text: v }),
        ' ',
      );
    }
    ul.append(li);
  });
  return ul;
}

/** The fields of a record: header fields are drawn by the caller; footer fields last. */
function recordBody(record, prefix, options = {}) {
  const at = (k) => (prefix ? `${prefix}.${k}` : k);
  const wrap = el('div', { class: 'record' });
  if (prefix) {
    if ('status' in record)
      wrap.append(
        el('span', {
          class: 'pill pill-info',
          'data-field': at('status'),
          'data-kind': 'scalar',
          text: record.status,
        }),
      );
    if ('command' in record) wrap.append(commandNode(record.command, at('command')));
    if (isTable(record.summary)) wrap.append(cardsNode(record.summary, at('summary')));
    for (const k of ['title', 'tagline', 'role', 'subject']) {
      if (typeof record[k] === 'string') {
        wrap.append(
          el(
            'p',
            { class: 'meta' },
            el('strong', { text: `${humanize(k)}: ` }),
            el('span', { 'data-field': at(k), 'data-kind': 'scalar', text: record[k] }),
          ),
        );
      }
    }
  }
  const skip = new Set([
    ...(prefix ? ['status', 'command', 'summary', 'title', 'tagline', 'role', 'subject'] : HEADER_KEYS),
    ...FOOTER_KEYS,
  ]);
  for (const [k, v] of Object.entries(record)) {
    if (skip.has(k)) continue;
    const embedded = options.embedded?.[k];
    if (embedded) {
      wrap.append(embedded);
      continue;
    }
    wrap.append(block(k, v, at(k)));
  }
  // A nested record's references fold away; the top-level record shows them open.
  const footer = prefix
    ? el(
        'details',
        { class: 'record-footer' },
        el('summary', { text: 'Data boundaries, API calls and documents' }),
      )
    : el('div', { class: 'record-footer' });
  if (record.dataBoundaries)
    footer.append(
      el(
        'div',
        { class: 'block' },
        el('h3', { text: humanize('dataBoundaries') }),
        render(record.dataBoundaries, at('dataBoundaries')),
      ),
    );
  const refs = el('div', { class: 'refs' });
  if (record.api) refs.append(el('div', {}, el('h3', { text: 'API calls' }), apiNode(record.api, at('api'))));
  if (record.docs)
    refs.append(el('div', {}, el('h3', { text: 'Documents' }), docsNode(record.docs, at('docs'))));
  if (refs.childElementCount) footer.append(refs);
  if (footer.querySelector('[data-field]')) wrap.append(footer);
  return wrap;
}

function commandNode(command, path) {
  return el(
    'pre',
    { class: 'command' },
    el('code', { 'data-field': path, 'data-kind': 'scalar', text: command }),
  );
}

const anchorOf = (item) => `demo-${item.path.replace(/^\/demo\//, '')}`;

function sectionNode(item, record, embedded) {
  const section = el('section', {
    class: 'demo',
    id: anchorOf(item),
    'data-demo': item.operationId,
    'data-path': item.path,
  });
  const head = el(
    'div',
    { class: 'demo-head' },
    el(
      'div',
      {},
      el('p', { class: 'eyebrow', text: item.title }),
      el('h2', { 'data-field': 'title', 'data-kind': 'scalar', text: record.title }),
    ),
    el(
      'div',
      { class: 'demo-meta' },
      el('span', {
        class: 'pill pill-info',
        'data-field': 'status',
        'data-kind': 'scalar',
        text: record.status,
      }),
      el('code', { class: 'http', text: `GET ${item.path}` }),
      el('a', { href: `./data/${item.file}`, text: 'JSON' }),
    ),
  );
  section.append(head);
  if (record.tagline)
    section.append(
      el('p', { class: 'tagline', 'data-field': 'tagline', 'data-kind': 'scalar', text: record.tagline }),
    );
  section.append(commandNode(record.command, 'command'));
  if (isTable(record.summary)) section.append(cardsNode(record.summary, 'summary'));
  section.append(recordBody(record, '', { embedded }));
  return section;
}

function sameAsNode(key, target) {
  return el(
    'div',
    { class: 'block same-as', 'data-field': key, 'data-kind': 'same-as', 'data-same-as': target.operationId },
    el('h3', { text: humanize(key) }),
    el(
      'p',
      {},
      'Embedded in this record and identical to ',
      el('a', { href: `#${anchorOf(target)}`, text: target.title }),
      ` (GET ${target.path}), shown there.`,
    ),
  );
}

async function load(file) {
  const res = await fetch(`./data/${file}`, { credentials: 'omit', cache: 'no-cache' });
  if (!res.ok) throw new Error(`${file}: HTTP ${res.status}`);
  return res.json();
}

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function main() {
  const app = document.getElementById('app');
  const nav = document.getElementById('nav');
  try {
    const index = await load('index.json');
    const records = await Promise.all(index.items.map((item) => load(item.file)));
    const byId = new Map(index.items.map((item, i) => [item.operationId, { item, record: records[i] }]));
    document.getElementById('loading').remove();

    index.items.forEach((item, i) => {
      const record = records[i];
      // An embedded record identical to another demo record is linked, not drawn twice.
      const embedded = {};
      for (const [k, v] of Object.entries(record)) {
        if (!isObject(v)) continue;
        for (const [otherId, other] of byId) {
          if (otherId !== item.operationId && sameJson(v, other.record))
            embedded[k] = sameAsNode(k, other.item);
        }
      }
      app.append(sectionNode(item, record, embedded));
      nav.append(el('a', { href: `#${anchorOf(item)}`, text: item.title }));
    });
    document.body.dataset.ready = 'true';
  } catch (error) {
    document.getElementById('loading')?.remove();
    app.append(
      el('p', { class: 'notice error', text: `The demo data could not be loaded: ${error.message}` }),
    );
    document.body.dataset.ready = 'error';
  }
}

main();
