import { describe, expect, it } from 'vitest';
import { quickbooksWords } from '#functions/adapters/quickbooks-target';
import { xeroWords } from '#functions/adapters/xero-target';
import { quickbooksFault } from '#local/oauth-apis-quickbooks';
import { xeroValidation } from '#local/oauth-apis-xero-writes';

/**
 * How a provider's refusal becomes the words on an export's item, attempt and review item
 * (functions/adapters/xero-target.ts, quickbooks-target.ts), from the error shapes Xero and Intuit document and the
 * sandbox answers with.
 */
describe("the providers' words", () => {
  it("Xero: every ValidationErrors message of every element, else the answer's Message or Detail", () => {
    const body = xeroValidation({ InvoiceNumber: 'INV-1' }, [
      'Invoice # must be unique.',
      'Account code must be specified',
    ]);
    expect(body).toMatchObject({ Type: 'ValidationException', ErrorNumber: 10 });
    expect(xeroWords(body)).toBe('Invoice # must be unique.; Account code must be specified');
    expect(xeroWords({ Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' })).toBe(
      'AuthenticationUnsuccessful',
    );
    expect(xeroWords({})).toBeUndefined();
  });

  it('QuickBooks: each Fault.Error as Message: Detail, naming its element; Detail left out when it repeats Message', () => {
    const body = quickbooksFault('ValidationFault', [
      {
        Message: 'String length is either shorter or longer than supported by specification',
        Detail:
          'String length specified does not match the supported length. Min:0 Max:21 supplied length:22',
        code: '2050',
        element: 'DocNumber',
      },
      { Message: 'Object Not Found', Detail: 'Object Not Found', code: '610' },
    ]);
    expect(quickbooksWords(body)).toBe(
      'String length is either shorter or longer than supported by specification: String length specified does not match the supported length. Min:0 Max:21 supplied length:22 (element DocNumber); Object Not Found',
    );
    expect(quickbooksWords({ Title: 'Scripted' })).toBeUndefined();
  });
});
