/**
 * The privacy scan of the public demo surface (docs/api.md section 8): no secrets, secret references,
 * raw provider payloads, request bodies or personal data. `findLeaks` walks any JSON value and
 * names every key and string that looks like one of them.
 */

/** Keys a public record must never have: they would carry a secret, a raw payload or a person. */
const FORBIDDEN_KEY =
  /^(password|passwd|secret|secrets|secretRef|secretArn|token|accessToken|refreshToken|apiKey|api_key|credential|credentials|authorization|cookie|privateKey|signingKey|webhookSecret|raw|rawPayload|rawBody|rawRequest|rawResponse|providerPayload|requestBody|responseBody|body|payload|headers|email|emailAddress|phone|phoneNumber|mobile|address|streetAddress|postalCode|firstName|lastName|fullName|dateOfBirth|birthDate|ssn|iban|cardNumber|ipAddress)$/i;

const VALUE_PATTERNS: [string, RegExp][] = [
  ['email address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
  ['phone number', /(^|[^\w])\+\d[\d\s().-]{7,}\d/],
  ['aws access key', /\b(AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['bearer token', /\bbearer\s+[A-Za-z0-9._~+/-]{16,}/i],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  [
    'api key',
    /\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{8,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  ],
  ['bot token', /\b\d{8,10}:[A-Za-z0-9_-]{30,}\b/],
  ['secret assignment', /\b(password|passwd|secret|api[_-]?key|token)\s*[:=]\s*\S{4,}/i],
  [
    'secret reference',
    /arn:aws[a-z-]*:(secretsmanager|ssm|kms):|\{\{resolve:|\bssm:\/|secretsmanager:|\/aws\/reference\//i,
  ],
  ['aws arn', /\barn:aws[a-z-]*:/],
  [
    'long random string',
    /\b(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Z])(?=[A-Za-z0-9+/_-]*[a-z])[A-Za-z0-9+/_-]{32,}={0,2}/,
  ],
  ['long hex string', /\b[0-9a-f]{32,}\b/i],
  ['ip address', /\b(?!127\.0\.0\.1\b)(\d{1,3}\.){3}\d{1,3}\b/],
  ['external url', /\b[a-z][a-z0-9+.-]*:\/\/(?!127\.0\.0\.1[:/])[^\s"]+/i],
  ['card number', /\b(?:\d[ -]?){13,19}\b/],
  ['iban', /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}\b/],
  ['raw json in a string', /^\s*[{[]\s*"/],
];

export interface Leak {
  path: string;
  kind: string;
  sample: string;
}

export function findLeaks(value: unknown, path = '$'): Leak[] {
  if (typeof value === 'string') {
    return VALUE_PATTERNS.filter(([, re]) => re.test(value)).map(([kind]) => ({
      path,
      kind,
      sample: value.slice(0, 80),
    }));
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => findLeaks(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(FORBIDDEN_KEY.test(k) ? [{ path: `${path}.${k}`, kind: 'forbidden key', sample: k }] : []),
      ...findLeaks(k, `${path}{${k}}`).filter((l) => l.kind !== 'raw json in a string'),
      ...findLeaks(v, `${path}.${k}`),
    ]);
  }
  return [];
}
