import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerQuickbooks, quickbooksFault } from './oauth-apis-quickbooks';
import { answerXero } from './oauth-apis-xero';
import { SandboxBook } from './oauth-book';
import type { OAuthProviderName } from './oauth-providers';

/** What the APIs ask of the consent side: the grant of a request's live access token, if any. */
export interface AccessCheck {
  authorized(req: IncomingMessage): unknown;
}

/**
 * Xero's Accounting API and QuickBooks Online's on loopback, in the shapes their references
 * document (docs/connecting-accounting.md). This is their front door: it records every API call
 * with its answer's status (each QuickBooks call's `minorversion` with it), plays a test's
 * scripted answers, and refuses a call without a live access token as each provider does; past
 * it each provider's half answers (oauth-apis-xero.ts, oauth-apis-quickbooks.ts) over the book
 * both keep (oauth-book.ts). `now` is the clock of the limits, so tests move it rather than wait
 * a minute.
 */

/** A scripted answer to the next API call of a provider. */
export type ApiScript = { status: number; retryAfter?: number; problem?: 'minute' | 'day' | 'concurrent' };

export class OAuthApis extends SandboxBook {
  private readonly scripts = new Map<OAuthProviderName, ApiScript[]>();

  constructor(private readonly oauth: AccessCheck) {
    super();
  }

  script(provider: OAuthProviderName, answers: ApiScript[]): void {
    this.scripts.set(provider, [...answers]);
  }

  answer(
    provider: OAuthProviderName,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    body: string,
  ) {
    const method = req.method ?? 'GET';
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({
        provider,
        method,
        path,
        status,
        at: this.now(),
        ...(provider === 'quickbooks_online' ? { minorversion: url.searchParams.get('minorversion') } : {}),
      });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    const scripted = this.scripts.get(provider)?.shift();
    if (scripted)
      return json(
        scripted.status,
        { Title: 'Scripted', Status: scripted.status },
        {
          ...(scripted.retryAfter ? { 'retry-after': String(scripted.retryAfter) } : {}),
          ...(scripted.problem ? { 'x-rate-limit-problem': scripted.problem } : {}),
        },
      );
    if (!this.oauth.authorized(req))
      return provider === 'xero'
        ? json(401, { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' })
        : json(
            401,
            quickbooksFault('AuthenticationFault', [
              { Message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401', code: '3200' },
            ]),
          );
    return provider === 'xero'
      ? answerXero(this, req, url, path, body, json)
      : answerQuickbooks(this, url, path, body, json);
  }
}
