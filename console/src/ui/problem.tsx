import type { ComponentChildren } from 'preact';
import { ApiError } from '../../../clients/typescript/index.js';

/**
 * What went wrong, said once for every screen: a 5xx names its request id (what support asks
 * for), a 404 says the record is not there (also what a record of another tenant answers), a 409
 * says the record changed; a 422's field errors are shown beside the fields (FieldError).
 */
export function Problem({ error, children }: { error: unknown; children?: ComponentChildren }) {
  if (!(error instanceof ApiError))
    return (
      <div class="problem" role="alert">
        The service could not be reached. Check the connection and try again.
      </div>
    );
  let text: string;
  if (error.status >= 500)
    text = `The service failed to answer (${error.status}). Request id: ${error.requestId ?? 'none'}`;
  else if (error.status === 404) text = 'Not found: it does not exist, or is not yours to see.';
  else if (error.status === 403) text = 'Your role may not do this.';
  else if (error.status === 409)
    text = 'This record changed since you loaded it. It is shown again as it is now.';
  else if (error.status === 429) text = 'Too many tries. Wait a minute and try again.';
  else if (error.status === 422) text = 'Some fields need a change: see the messages beside them.';
  else text = error.detail ?? error.title;
  return (
    <div class="problem" role="alert">
      {text}
      {error.status >= 500 && error.requestId ? (
        <>
          {' '}
          <code class="request-id">{error.requestId}</code>
        </>
      ) : null}
      {children}
    </div>
  );
}

/** The 422 messages for one field (its path, e.g. `quiet_hours.start`), or for paths under it. */
export function fieldErrors(error: unknown, path: string): string[] {
  if (!(error instanceof ApiError) || error.status !== 422) return [];
  return error.errors
    .filter((e) => e.path === path || e.path.startsWith(`${path}.`) || e.path.startsWith(`${path}[`))
    .map((e) => e.message);
}

export function FieldError({ error, path, id }: { error: unknown; path: string; id: string }) {
  const messages = fieldErrors(error, path);
  if (messages.length === 0) return null;
  return (
    <span class="field-error" id={id} role="alert">
      {messages.join(' ')}
    </span>
  );
}

export const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;
