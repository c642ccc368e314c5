import type {
  Invitation,
  InvitationLookup,
  InvitationStore,
  InviteeStore,
} from '#shared/domain/identity/ports';
import { storedReader } from '#shared/table/entity';
import { invitation, invitationRecord } from '#shared/table/entities/invitation';
import { member } from '#shared/table/entities/member';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { equals, queryAll, queryFrom, queryPage } from './query';
import { getRecord, putNew } from './records';
import { transact, type WriteOp } from './transact';
import { userPuts } from './identity-store';
import { ownerDelta } from './tenant-store';

/**
 * Invitations, in two stores over one entity: the owners' side (the tenants routes) and the
 * invitee's (the auth routes). Two object literals, so each Lambda bundles only its side.
 */

const toInvitation = /* @__PURE__ */ storedReader<Invitation>()(invitationRecord);

/** A week past its expiry (a late answer still gets a clear 409), then DynamoDB's TTL removes it. */
const RETENTION_SECONDS = 7 * 24 * 3600;

const STATUS = { '#status': 'status' };

/** The status change, if the invitation is still the pending, unexpired one it was read as. */
const transition = (record: Invitation, status: Invitation['status'], now: string): WriteOp => ({
  Update: {
    Key: invitation.key(record),
    UpdateExpression: 'SET #status = :to',
    ConditionExpression: 'id = :id AND #status = :pending AND expires_at > :now',
    ExpressionAttributeNames: STATUS,
    ExpressionAttributeValues: { ':to': status, ':id': record.id, ':pending': 'pending', ':now': now },
  },
});

const lookup = (db: Db): InvitationLookup => ({
  async findInvitation(of, id) {
    // The owners' list (GSI2) or the invitee's (GSI1): both sort by id.
    const partition = 'email' in of ? invitation.query('gsi1', of) : invitation.query('gsi2', of);
    const out = await queryFrom(db, { ...partition, sortCondition: equals(id) });
    const item = out.Items?.[0];
    return item ? toInvitation(item) : undefined;
  },

  async endInvitation(record, status, audit, now) {
    return (await transact(db, [transition(record, status, now), auditPut(audit)])).ok;
  },
});

export const invitationStore = (db: Db): InvitationStore => ({
  ...lookup(db),

  async createInvitation(record, newUser, audits) {
    const ttl = Math.floor(Date.parse(record.expires_at) / 1000) + RETENTION_SECONDS;
    const ops: WriteOp[] = [
      {
        Put: {
          Item: invitation.item({ ...record, ttl }),
          // One pending invitation per tenant and email; one that has ended or expired is replaced.
          ConditionExpression: 'attribute_not_exists(pk) OR #status <> :pending OR expires_at <= :now',
          ExpressionAttributeNames: STATUS,
          ExpressionAttributeValues: { ':pending': 'pending', ':now': record.created_at },
        },
      },
      ...(newUser ? userPuts(newUser) : []),
      ...audits.map(auditPut),
    ];
    const result = await transact(db, ops);
    if (result.ok) return 'ok';
    if (result.failed.includes(0)) return 'pending';
    if (newUser && result.failed.includes(1)) return 'email_taken';
    throw new Error(`createInvitation: unexpected condition failure at ${result.failed.join(',')}`);
  },

  getInvitation: (tenantId, email) =>
    getRecord(db, invitation.key({ tenant_id: tenantId, email }), toInvitation),

  listInvitations(tenantId, page) {
    return queryPage(db, {
      scope: { list: 'invitations', tenant_id: tenantId },
      ...invitation.query('gsi2', { tenant_id: tenantId }),
      filters: { status: 'pending' },
      page,
      map: toInvitation,
    });
  },
});

export const inviteeStore = (db: Db): InviteeStore => ({
  ...lookup(db),

  async invitationsOf(email) {
    const items = await queryAll(db, invitation.query('gsi1', { email }));
    return items.map(toInvitation).filter((i) => i.status === 'pending');
  },

  async acceptInvitation(record, membership, audit, now) {
    const ops: WriteOp[] = [transition(record, 'accepted', now), putNew(member.item(membership))];
    if (membership.role === 'owner') ops.push(ownerDelta(membership.tenant_id, 1));
    ops.push(auditPut(audit));
    const result = await transact(db, ops);
    if (result.ok) return 'ok';
    if (result.failed.includes(0)) return 'stale';
    if (result.failed.includes(1)) return 'member';
    throw new Error(`acceptInvitation: unexpected condition failure at ${result.failed.join(',')}`);
  },
});
