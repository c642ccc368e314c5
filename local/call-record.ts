import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { onClientMade } from '#functions/adapters/client-options';

/**
 * Test-only: every AWS call a function makes (its client, command and input), written as one
 * JSON line to the file that `OPS_AWS_CALL_LOG` names, so that tests/e2e/roles-from-calls.test.ts
 * can check each call against that function's role in the synthesized template
 * (docs/infrastructure.md, "Roles checked from the calls"). The local runtime installs it
 * (`recordAwsCalls`) through the hook every SDK client of the functions passes
 * (functions/adapters/client-options.ts `made`): it lives in local/, so no deployed bundle
 * carries it (tests/unit/budgets/local-only.test.ts).
 *
 * A call is attributed to the deployed function whose handler runs it (`asFunction`, which the
 * local runtime wraps around each handler and worker).
 */

/** One call as the middleware saw it: the tests turn it into IAM requests (tests/support/roles.ts). */
export interface RecordedCall {
  /** The deployed function's short name (`api-tasks`, `outbox-relay`), or null outside any handler. */
  fn: string | null;
  /** The SDK client (`DynamoDBClient`, `SQSClient`, `SSMClient`, `SESv2Client`, `SNSClient`). */
  client: string;
  /** The command (`TransactWriteItemsCommand`). */
  command: string;
  /** The command's input as sent (test data only: the log is never on outside the tests). */
  input: unknown;
}

const running = new AsyncLocalStorage<string>();
let recording = false;

/** Runs `work` as the deployed function `name`: the calls it makes are that function's. */
export const asFunction = <T>(name: string, work: () => T): T =>
  recording ? running.run(name, work) : work();

interface Stackable {
  middlewareStack: {
    add: (
      mw: (
        next: (args: unknown) => Promise<unknown>,
        context: unknown,
      ) => (args: unknown) => Promise<unknown>,
      options: { step: 'initialize'; name: string; override: boolean },
    ) => void;
  };
}

/**
 * Adds the recording middleware to an SDK client, every call one line of `file`, however many
 * attempts it takes (`initialize` runs once per call, outside the SDK's retries).
 */
export function recordingCalls<C>(client: C, file: string): C {
  (client as Stackable).middlewareStack.add(
    (next, context) => async (args) => {
      const { clientName, commandName } = context as { clientName?: string; commandName?: string };
      const call: RecordedCall = {
        fn: running.getStore() ?? null,
        client: clientName ?? '',
        command: commandName ?? '',
        input: (args as { input?: unknown }).input,
      };
      appendFileSync(file, `${JSON.stringify(call)}\n`);
      return next(args);
    },
    { step: 'initialize', name: 'recordAwsCalls', override: true },
  );
  return client;
}

/**
 * Records the calls of every SDK client the functions build from now on to `file`, or stops
 * recording (undefined). The local runtime calls it with OPS_AWS_CALL_LOG before any handler
 * loads, so that each function's clients, made when its module loads, carry the recorder.
 */
export function recordAwsCalls(file: string | undefined): void {
  recording = file !== undefined;
  onClientMade(file === undefined ? undefined : (client) => recordingCalls(client, file));
}
