import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import type { Loaded } from './load.js';
import { Problem } from './problem.js';

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** The next page's link: the cursor goes into the URL, so a page can be bookmarked and shared. */
export function Pager({ next, href }: { next: string | null; href: (cursor: string | undefined) => string }) {
  const params = new URLSearchParams(location.search);
  const paged = params.has('cursor');
  if (!next && !paged) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {paged ? <a href={href(undefined)}>First page</a> : null}
      {next ? <a href={href(next)}>Next page</a> : <span class="muted">Last page</span>}
    </nav>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A timestamp in the browser's time zone, dense (`2026-11-29 04:18`, with `:07` seconds where
 * the order of close events matters), with the ISO in a tooltip.
 */
export function Time({ at, seconds }: { at: string | null | undefined; seconds?: boolean }) {
  if (!at) return <span class="muted">–</span>;
  const d = new Date(at);
  const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ''}`;
  return (
    <time dateTime={at} title={at}>
      {text}
    </time>
  );
}

export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value}`}>{value.replaceAll('_', ' ')}</span>;
}

/** A URL of the current path with `changes` applied to its query (undefined or '' removes). */
export function withQuery(changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') params.delete(k);
    else params.set(k, v);
  }
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ''}`;
}

/**
 * A list's four states, said the same way on every screen: loading, the problem, the empty
 * sentence, or the rows `children` draws from the loaded page.
 */
export function Listing<T extends { items: readonly unknown[] }>({
  list,
  empty,
  children,
}: {
  list: Loaded<T>;
  empty: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  if (list.state === 'loading') return <Loading />;
  if (list.state === 'error') return <Problem error={list.error} />;
  if (list.data.items.length === 0) return <Empty>{empty}</Empty>;
  return <>{children(list.data)}</>;
}

/**
 * A list's filter as a select kept in the URL's `name` ("any" removes it); a new filter starts
 * again at the first page.
 */
export function QueryFilter({
  label,
  name,
  value,
  options,
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: readonly string[];
}) {
  const { route } = useLocation();
  return (
    <label>
      {label}{' '}
      <select
        name={name}
        value={value ?? ''}
        onChange={(e) => route(withQuery({ [name]: e.currentTarget.value, cursor: undefined }))}
      >
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
    </label>
  );
}
