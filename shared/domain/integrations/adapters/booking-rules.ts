/**
 * The rules by which the two OAuth 2 accounting adapters book a document, kept beside their
 * declarations (xero.ts, quickbooks-online.ts) so the contract, the client and the docs
 * (docs/connecting-accounting.md) state one rule each.
 */

/**
 * QuickBooks Online keeps `DocNumber` (and a payment's `PaymentRefNum`) to 21 characters; the
 * project accepts numbers of up to 64. A longer number is refused (the document fails with
 * `validation_rejected` and says so), never cut: two numbers sharing their first 21 characters
 * would become one, and the lookup by number could answer another document.
 */
export const QBO_DOC_NUMBER_MAX = 21;

/**
 * The `minorversion` every QuickBooks Online call carries. Intuit made 75 the floor on
 * 1 August 2025 (lower versions are ignored) and its SDKs pin one; so does this client, so a
 * later default cannot change the shapes under it.
 */
export const QBO_MINOR_VERSION = '75';

/**
 * Xero's `LineAmountTypes` for a connection's documents. A document's `amount` is what the
 * customer owes, tax included, so Xero must not add tax on top: with a `tax_type` in the config
 * the line is `Inclusive` of that tax (Xero computes the tax inside the amount), without one it
 * is `NoTax`. Never `Exclusive`: the booked total would exceed the document's amount.
 */
export const xeroLineAmountTypes = (config: Record<string, unknown>): 'Inclusive' | 'NoTax' =>
  typeof config.tax_type === 'string' && config.tax_type ? 'Inclusive' : 'NoTax';
