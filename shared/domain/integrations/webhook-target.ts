import { isIP, isIPv4 } from 'node:net';

/**
 * Where the service may send a webhook: checked when a connection is saved (`webhookUrlProblem`,
 * 422 on the URL) and again on every resolved address at delivery (functions/adapters/webhook.ts
 * calls `isForbiddenAddress` from its DNS lookup). Pure: no DNS here, so a host name is checked
 * by name at save and by address when it is connected to.
 */

/**
 * Address ranges as `[first address, prefix length]`, matched on the address as a number: IPv4
 * as a 32-bit number, IPv6 as a 128-bit bigint. No address library: this module runs in the hub's
 * API bundle, which has no room for one (tests/unit/budgets/bundle-size.test.ts).
 */
type Range<T> = readonly [T, number];

const V4_LOOPBACK: Range<string> = ['127.0.0.0', 8];
/** Every IPv4 range that is not public unicast (IANA special-purpose registry). */
const V4_SPECIAL: readonly Range<string>[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
/** Every IPv6 range inside or outside 2000::/3 that is not public unicast (beyond the embedding ones). */
const V6_SPECIAL: readonly Range<string>[] = [
  ['::', 128],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, 2001::/32, is unwrapped first)
  ['2001:db8::', 32], // documentation
  ['2620:4f:8000::', 48],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

const v4Number = (dotted: string) => dotted.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

/** An IPv4 address in any form the URL parser reads (dotted, decimal, octal, hex, short), as a number. */
function parseV4(text: string): number | undefined {
  if (!/^[0-9a-fA-FxX.]+$/.test(text) || !URL.canParse(`http://${text}/`)) return undefined;
  const host = new URL(`http://${text}/`).hostname;
  return isIPv4(host) ? v4Number(host) : undefined;
}

/** An IPv6 address (a zone id is dropped, a trailing dotted IPv4 is read), as a 128-bit number. */
function parseV6(text: string): bigint | undefined {
  const bare = text.replace(/%[0-9A-Za-z._~-]+$/, '');
  if (!bare.includes(':') || !/^[0-9a-fA-F:.]+$/.test(bare) || !URL.canParse(`http://[${bare}]/`))
    return undefined;
  // The URL parser's canonical form: lower-case hex groups, `::` at most once, no dotted tail.
  const [head = '', tail] = new URL(`http://[${bare}]/`).hostname.slice(1, -1).split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const parts =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return parts.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const inV4 = (n: number, [first, prefix]: Range<string>) =>
  Math.floor(n / 2 ** (32 - prefix)) === Math.floor(v4Number(first) / 2 ** (32 - prefix));
const inV6 = (n: bigint, [first, prefix]: Range<string>) =>
  n >> BigInt(128 - prefix) === parseV6(first)! >> BigInt(128 - prefix);

const low32 = (n: bigint) => Number(n & 0xffffffffn);

/**
 * The IPv4 addresses an IPv6 address carries to the IPv4 network: the packet ends up there, so
 * those are what must be public. `null`: an IPv6 address that carries none. Two forms need no
 * unwrapping, as they lie outside 2000::/3 and are refused with it: `::a.b.c.d`, the deprecated
 * IPv4-compatible form (RFC 4291 2.5.5.1), and the RFC 8215 local-use NAT64 prefix 64:ff9b:1::/48,
 * whose embedded address only the local network can place.
 */
function embeddedIPv4(n: bigint): number[] | null {
  if (inV6(n, ['::ffff:0:0', 96]) || inV6(n, ['::ffff:0:0:0', 96])) return [low32(n)]; // mapped, translated
  if (inV6(n, ['64:ff9b::', 96])) return [low32(n)]; // NAT64, well-known prefix
  if (inV6(n, ['2002::', 16])) return [low32(n >> 80n)]; // 6to4: 2002:AABB:CCDD::/48
  if (inV6(n, ['2001::', 32])) return [low32(n >> 64n), low32(~n)]; // Teredo: server, client (inverted)
  return null;
}

const isPublicV4 = (n: number, allowLoopback: boolean): boolean =>
  inV4(n, V4_LOOPBACK) ? allowLoopback : !V4_SPECIAL.some((r) => inV4(n, r));

function isPublicV6(n: bigint, allowLoopback: boolean): boolean {
  if (n === 1n) return allowLoopback;
  const inner = embeddedIPv4(n);
  if (inner) return inner.every((x) => isPublicV4(x, allowLoopback));
  return inV6(n, ['2000::', 3]) && !V6_SPECIAL.some((r) => inV6(n, r));
}

/**
 * Whether a webhook may not connect to `address`: anything but a public unicast address (private,
 * loopback, link-local and cloud metadata, CGNAT, multicast, reserved and documentation ranges),
 * also when an IPv6 address embeds such an IPv4 one (mapped, translated, NAT64, 6to4, Teredo).
 * Decimal, octal, hex and short IPv4 forms parse as the address they name;
 * anything that is not an address is refused. `allowLoopback` lets the local runtime and tests
 * reach their loopback receivers.
 */
export function isForbiddenAddress(address: string, allowLoopback: boolean): boolean {
  const v4 = parseV4(address);
  if (v4 !== undefined) return !isPublicV4(v4, allowLoopback);
  const v6 = parseV6(address);
  return v6 === undefined || !isPublicV6(v6, allowLoopback);
}

/** Host names that name this machine or a cloud metadata service, whatever DNS says. */
const FORBIDDEN_HOST = /^(localhost|metadata|metadata\.google\.internal|instance-data)$|\.localhost$/i;

/**
 * Why the service may not POST to `url`, or undefined when it may: an absolute https URL without
 * credentials whose host is neither a forbidden address (in any of its spellings: the URL parser
 * turns decimal, octal, hex and short IPv4 into dotted form, and IPv6 literals keep their
 * brackets) nor a loopback or metadata name. `allowLoopback` (the local runtime) accepts
 * `http://` and `https://` to 127.0.0.1, ::1 and localhost.
 */
export function webhookUrlProblem(
  url: string,
  allowLoopback: boolean,
): { code: string; message: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { code: 'invalid_url', message: 'must be an absolute https URL' };
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = isIP(host) !== 0;
  const loopback = literal
    ? isForbiddenAddress(host, false) && !isForbiddenAddress(host, true)
    : /^localhost$/i.test(host);
  const local = allowLoopback && loopback;
  if (parsed.protocol !== 'https:' && !(local && parsed.protocol === 'http:'))
    return { code: 'not_https', message: 'must be an https URL' };
  if (parsed.username || parsed.password)
    return { code: 'credentials_in_url', message: 'must not carry credentials' };
  if (local) return undefined;
  if (literal ? isForbiddenAddress(host, false) : FORBIDDEN_HOST.test(host))
    return {
      code: 'forbidden_target',
      message: 'must not name a private, loopback, link-local, CGNAT or metadata address',
    };
  return undefined;
}

/**
 * Whether a webhook notification's recipient lies under its connection's URL: the same scheme,
 * host and port, and a path at or below the connection's path.
 */
export function isUnderUrl(recipient: string, base: string): boolean {
  if (!URL.canParse(recipient) || !URL.canParse(base)) return false;
  const r = new URL(recipient);
  const b = new URL(base);
  if (r.origin !== b.origin || r.username || r.password) return false;
  const prefix = b.pathname.endsWith('/') ? b.pathname : `${b.pathname}/`;
  return r.pathname === b.pathname || r.pathname.startsWith(prefix);
}
