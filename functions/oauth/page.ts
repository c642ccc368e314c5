import { CALLBACK_ANSWERS, type CallbackOutcome } from '#shared/domain/oauth/connect';
import { HttpResult } from '#functions/http/dispatch';

/**
 * The callback's short page (docs/api.md, "Connecting an accounting system"): what happened, in
 * words the person can act on, and a link back to the console page the consent was asked from.
 */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const page = (outcome: CallbackOutcome): HttpResult => {
  const answer = CALLBACK_ANSWERS[outcome.answer];
  const text = outcome.answer === 'connected' ? `${outcome.adapter_name} ${answer.text}` : answer.text;
  const title = outcome.answer === 'connected' ? 'Connected' : 'Not connected';
  // The console page the consent was asked from (a page of the console, checked at authorize).
  const back = outcome.return_to
    ? `<p><a href="${escape(outcome.return_to)}">${outcome.answer === 'connected' ? 'Back to the connection' : 'Back to the console'}</a></p>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head><body><h1>${title}</h1><p>${escape(text)}</p>${back}</body></html>`;
  return new HttpResult(
    html,
    {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'",
      ...(outcome.retry_after_seconds ? { 'retry-after': String(outcome.retry_after_seconds) } : {}),
    },
    answer.status,
  );
};
