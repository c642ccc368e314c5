/**
 * The demo site's security headers, defined once: CloudFront's response-headers policy in front of
 * the site (infra/constructs/demo-site.ts) and the local runtime's static files (local/runtime.ts)
 * both read them, so the page is tried locally under the policy it gets in the cloud.
 */
export const DEMO_SITE_HEADERS = {
  /** `apiOrigin`: where the page may call the API when it is another origin (the cloud). */
  contentSecurityPolicy: (apiOrigin?: string) =>
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      apiOrigin ? `connect-src 'self' ${apiOrigin}` : "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; '),
  strictTransportSecurity: { maxAgeSeconds: 365 * 24 * 60 * 60, includeSubdomains: true },
  frameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  xssProtection: { protection: true, modeBlock: true },
} as const;

/**
 * The headers as CloudFront writes them from that policy (which also always sends `nosniff`).
 * Browsers ignore HSTS over plain HTTP, so the local runtime sending it changes nothing there.
 */
export function demoSiteSecurityHeaders(apiOrigin?: string): Record<string, string> {
  const { strictTransportSecurity: hsts, xssProtection: xss } = DEMO_SITE_HEADERS;
  return {
    'content-security-policy': DEMO_SITE_HEADERS.contentSecurityPolicy(apiOrigin),
    'strict-transport-security': `max-age=${hsts.maxAgeSeconds}${hsts.includeSubdomains ? '; includeSubDomains' : ''}`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': DEMO_SITE_HEADERS.frameOptions,
    'referrer-policy': DEMO_SITE_HEADERS.referrerPolicy,
    'x-xss-protection': `${xss.protection ? 1 : 0}${xss.modeBlock ? '; mode=block' : ''}`,
  };
}
