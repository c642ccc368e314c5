import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '#functions/http/envelope';
import { MalformedJsonError, MethodNotAllowedError } from '#shared/kernel/errors';
import { writeProblem } from './clock-route';
import type { ProviderSandbox } from './provider-sandbox';

/** The loopback webhook receiver's own route on the local runtime (README, "Event subscriptions"). */
export const LOCAL_WEBHOOKS_PATH = '/_local/webhook-receiver';

/**
 * `GET /_local/webhook-receiver` answers the receiver's URL (a subscription's `url` on this
 * machine) and what it received: each message's `webhook-id`, its type, how many signatures it
 * carried and what the receiver answered. `POST {answers: [503, 410]}` makes the next answers
 * those statuses (a 503 or 429 comes with `Retry-After: 1`), to break the receiver on purpose.
 */
export async function webhookReceiverRoute(
  sandbox: ProviderSandbox,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
) {
  const reply = (value: unknown) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-request-id': requestIdOf(req.headers['x-request-id']),
    });
    res.end(JSON.stringify(value));
  };
  const path = '/webhook/receiver';
  if (req.method === 'GET') {
    const received = sandbox
      .received('webhook')
      .filter((r) => r.path === path)
      .map((r) => ({
        webhook_id: r.headers['webhook-id'] ?? null,
        type: (JSON.parse(r.body) as { type?: string }).type ?? null,
        signatures: String(r.headers['webhook-signature'] ?? '')
          .split(' ')
          .filter(Boolean).length,
        answered: r.status,
      }));
    return reply({ url: `${sandbox.url}${path}`, received });
  }
  if (req.method !== 'POST') return writeProblem(res, new MethodNotAllowedError(['GET', 'POST']), req);
  let answers: unknown;
  try {
    answers = (JSON.parse(body.toString('utf8')) as { answers?: unknown }).answers;
  } catch {
    return writeProblem(res, new MalformedJsonError(), req);
  }
  const statuses = Array.isArray(answers) ? answers.filter((a): a is number => Number.isInteger(a)) : [];
  sandbox.script('webhook', statuses);
  reply({ scripted: statuses });
}
