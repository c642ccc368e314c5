import { describe, expect, it } from 'vitest';
import { EXCEPTION_FIELDS } from '#shared/api/schemas/exceptions';
import { NOTIFICATION_FIELDS, REVIEW_ITEM_FIELDS } from '#shared/api/schemas/notifications';
import { BusinessExceptionRead, NotificationRead, ReviewItemRead } from '#shared/api/schemas/responses';

/**
 * The stores copy these fields out of items (so key and internal attributes never reach a
 * client); the lists live apart from the response schemas to keep those out of the Lambda
 * bundles, and must name exactly the response records' fields.
 */
describe('stored field lists match the response records', () => {
  it.each([
    ['BusinessExceptionRead', EXCEPTION_FIELDS, BusinessExceptionRead.shape],
    ['NotificationRead', NOTIFICATION_FIELDS, NotificationRead.shape],
    ['ReviewItemRead', REVIEW_ITEM_FIELDS, ReviewItemRead.shape],
  ])('%s', (_name, fields, shape) => {
    expect([...fields]).toEqual(Object.keys(shape));
  });
});
