import { type AccessDoc, entity } from '../entity';

/**
 * One document of an export at the target: `sending` (claimed under `lease_until` before the
 * call; the call's outcome is not known yet) or `booked` (with the target's `external_id`).
 * Written conditionally before and after each call, so no two workers send a document at once
 * and a booked document is never sent again.
 */
export const exportBooking = /* @__PURE__ */ entity('export_booking', {
  table: { pk: 'TENANT#{tenant_id}#ACCOUNTING_EXPORT#{export_id}#BOOKING', sk: '{index}' },
});

export const access = {
  entity: exportBooking,
  patterns: [
    {
      name: "An export's bookings",
      notes: 'conditional Put per document before (claim) and after (booked) the call to the target',
    },
    { name: 'Claim or record one booking', sortKey: 'equals' },
  ],
} satisfies AccessDoc<typeof exportBooking>;
