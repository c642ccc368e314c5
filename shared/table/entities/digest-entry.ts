import { type AccessDoc, entity } from '../entity';

/**
 * A notification held in a digest, as the digest message lists it: one item per held
 * notification under the digest, oldest first (notification ids are time-ordered).
 */
export const digestEntry = /* @__PURE__ */ entity('digest_entry', {
  table: { pk: 'TENANT#{tenant_id}#DIGEST#{digest_id}', sk: '{notification_id}' },
});

export const access = {
  entity: digestEntry,
  labels: { notification_id: 'notification_id' },
  patterns: [{ name: "A digest's held notifications, oldest first (the digest firing)" }],
} satisfies AccessDoc<typeof digestEntry>;
