import { type AccessDoc, entity } from '../entity';

/**
 * One page of provider records a reconciliation run has read (`records`, and `next`: the cursor
 * of the page after it, null on the last). A run that stops for the provider's rate limit, or at
 * the end of a firing's share of pages, resumes after its last page on a later firing instead of
 * reading from the start; the comparison reads every page once all are in.
 */
export const reconciliationPage = /* @__PURE__ */ entity('reconciliation_page', {
  table: { pk: 'TENANT#{tenant_id}#RECONCILIATION_RUN#{run_id}#PAGE', sk: '{seq}' },
});

export const access = {
  entity: reconciliationPage,
  patterns: [
    { name: "A reconciliation run's pages read so far", notes: 'in reading order (seq zero-padded)' },
    { name: 'Keep one page read', sortKey: 'equals', notes: 'a Put; the same page read again overwrites it' },
  ],
} satisfies AccessDoc<typeof reconciliationPage>;
