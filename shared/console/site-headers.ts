import { DEMO_SITE_HEADERS } from '#shared/demo/site-headers';

/**
 * The operator console's Content-Security-Policy (docs/api.md, "The operator console"), defined
 * once: CloudFront's response headers policy on `/console/*` (infra/constructs/demo-site.ts) and
 * the local runtime's console files (local/runtime.ts) both send it. Scripts and styles come from
 * the console's own origin only, with no inline script or style; connections go to that origin
 * and to the API's (`apiOrigin`, when the API is another origin, as in the cloud).
 */
export const consoleContentSecurityPolicy = (apiOrigin?: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    apiOrigin ? `connect-src 'self' ${apiOrigin}` : "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');

/** The console's headers as the local runtime sends them: the demo site's, with the console's CSP. */
export function consoleSecurityHeaders(apiOrigin?: string): Record<string, string> {
  const { strictTransportSecurity: hsts } = DEMO_SITE_HEADERS;
  return {
    'content-security-policy': consoleContentSecurityPolicy(apiOrigin),
    'strict-transport-security': `max-age=${hsts.maxAgeSeconds}${hsts.includeSubdomains ? '; includeSubDomains' : ''}`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': DEMO_SITE_HEADERS.frameOptions,
    // The console's URLs carry tenant ids and record ids: no referrer leaves it.
    'referrer-policy': 'no-referrer',
  };
}
