import type { Db } from './dynamo';

/** The only DynamoDB commands a read-only client sends. */
export const READ_COMMANDS: ReadonlySet<string> = new Set(['GetItemCommand', 'QueryCommand']);

/** A write sent through a read-only client: a bug in the code that sent it, never a client error. */
export class ReadOnlyViolation extends Error {
  constructor(readonly command: string) {
    super(`read-only table client refused ${command}`);
    this.name = 'ReadOnlyViolation';
  }
}

/**
 * `db` with its client refusing every command but GetItem and Query before it leaves the process.
 * The previews group runs on it (docs/api.md section 9.5), so a write from a preview fails on the
 * local runtime as in the cloud, where its role grants no write either. The client is changed in
 * place: pass a Db made for the read-only user alone (each group's handler makes its own).
 */
export function readOnly(db: Db): Db {
  db.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName ?? 'unknown';
      if (!READ_COMMANDS.has(command)) throw new ReadOnlyViolation(command);
      return next(args);
    },
    { step: 'initialize', name: 'readOnly', priority: 'high' },
  );
  return db;
}
