import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EscalationFireDeps } from '#shared/domain/escalation/firing';
import type { EscalationStore } from '#shared/domain/escalation/ports';
import type { Clock } from '#shared/kernel/ids';
import { allowLoopback } from '#functions/config';
import { memberDirectory, policyReader } from './escalation-policy-store';
import { exceptionStore } from './exception-store';
import { exception } from '#shared/table/entities/exception';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { applied, putIf } from './records';
import { transact, type WriteOp } from './transact';
import { exceptionItem } from './exception-store';
import { notificationStore, notificationWrites } from './notification-store';
import { outboxPut } from './outbox';
import { timerPut } from './timer-store';

/** The escalation a stored exception must still show, in DynamoDB's terms (`#esc`, `:policy`, `:level`, `:due`). */
const showing = (e: { policy_id: string; level: number; next_at: string }) => ({
  expression: '#esc.policy_id = :policy AND #esc.#level = :level AND #esc.next_at = :due',
  names: { '#esc': 'escalation', '#level': 'level' },
  values: { ':policy': e.policy_id, ':level': e.level, ':due': e.next_at },
});

/** The writes of escalation (shared/domain/escalation/firing.ts), each one conditional transaction. */
export const escalationStore = (db: Db): EscalationStore => ({
  async fireLevel(f) {
    const guard = showing(f.expected);
    const ops: WriteOp[] = [
      {
        Update: {
          Key: exception.key({ tenant_id: f.exception.tenant_id, id: f.exception.id }),
          // Status `open` and the same pending level: an acknowledgement, a resolve, a cancel or an
          // earlier delivery of this firing that committed first makes this write nothing.
          ConditionExpression: `#status = :open AND ${guard.expression}`,
          UpdateExpression: f.next
            ? 'SET #esc = :next, escalation_round = :round'
            : 'SET escalation_round = :round REMOVE #esc',
          ExpressionAttributeNames: { ...guard.names, '#status': 'status' },
          ExpressionAttributeValues: {
            ...guard.values,
            ':open': 'open',
            ':round': f.round,
            ...(f.next && { ':next': f.next }),
          },
        },
      },
      auditPut(f.audit),
      outboxPut(f.event),
      ...(f.timer ? [timerPut(f.timer)] : []),
      ...f.drafts.flatMap((d) => notificationWrites(d.notification, d.audit, d.outbox, d.holds)),
    ];
    const result = await transact(db, ops);
    if (result.ok) return 'written';
    if (result.failed.includes(0)) return 'stale';
    throw new Error('an escalation level collided with an existing item');
  },

  async reopen(r) {
    const result = await transact(db, [
      putIf(exceptionItem(r.next), {
        // Still acknowledged by the acknowledgement that armed this timeout: a resolve, a cancel or
        // an earlier delivery of this firing that committed first makes this write nothing.
        ConditionExpression: '#status = :acknowledged AND ack_timeout_at = :due',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':acknowledged': 'acknowledged', ':due': r.ackTimeoutAt },
      }),
      auditPut(r.audit),
      outboxPut(r.event),
      timerPut(r.timer),
    ]);
    if (result.ok) return 'written';
    if (result.failed.includes(0)) return 'stale';
    throw new Error('an acknowledgement timeout collided with an existing item');
  },

  async stop(e, expected) {
    const guard = showing(expected);
    await applied(
      db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: exception.key({ tenant_id: e.tenant_id, id: e.id }),
          UpdateExpression: 'REMOVE #esc',
          ConditionExpression: guard.expression,
          ExpressionAttributeNames: guard.names,
          ExpressionAttributeValues: guard.values,
        }),
      ),
    );
  },
});

/** The escalation kinds' dependencies on the table, for the internal worker's timer handler. */
export const escalationFireDeps = (db: Db, clock: Clock): EscalationFireDeps => ({
  exceptions: exceptionStore(db),
  policies: policyReader(db),
  members: memberDirectory(db),
  notifications: { notifications: notificationStore(db), clock, allowLoopback: allowLoopback() },
  escalations: escalationStore(db),
  clock,
});
