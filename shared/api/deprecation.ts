/**
 * Deprecation of an operation or a field (docs/api.md section 12), declared on its row of the
 * operations manifest. Plain data and two small functions: the route groups bundle this module
 * for the headers, the OpenAPI builder for the same values.
 */
export interface Deprecation {
  /** The day the deprecation takes effect (`YYYY-MM-DD`, UTC midnight); may lie in the future. */
  since: string;
  /** The day after which the operation or field may stop working (`YYYY-MM-DD`); not before `since`. */
  sunset?: string;
  /** An `https://` page saying what to use instead. */
  link?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const time = (day: string) => (DAY.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN);

/** What is wrong with a declaration; `[]` when nothing is. The manifest test runs it on every row. */
export function deprecationProblems(d: Deprecation): string[] {
  const out: string[] = [];
  const since = time(d.since);
  if (Number.isNaN(since)) out.push(`since ${d.since} is not a YYYY-MM-DD day`);
  if (d.sunset !== undefined) {
    const sunset = time(d.sunset);
    if (Number.isNaN(sunset)) out.push(`sunset ${d.sunset} is not a YYYY-MM-DD day`);
    // RFC 9745 section 4: the Sunset MUST NOT be earlier than the Deprecation.
    else if (sunset < since) out.push(`sunset ${d.sunset} is before since ${d.since}`);
  }
  if (d.link !== undefined && !/^https:\/\/[^\s<>"]+$/.test(d.link))
    out.push(`link ${d.link} is not an https:// URL`);
  return out;
}

/**
 * The response headers of a deprecated operation: `Deprecation` as a structured-field date
 * (RFC 9745: `@` and Unix seconds), `Sunset` as an HTTP-date (RFC 8594), and the page in a
 * `Link` with `rel="deprecation"`.
 */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  const headers: Record<string, string> = { deprecation: `@${time(d.since) / 1000}` };
  if (d.sunset) headers.sunset = new Date(time(d.sunset)).toUTCString();
  if (d.link) headers.link = `<${d.link}>; rel="deprecation"`;
  return headers;
}
