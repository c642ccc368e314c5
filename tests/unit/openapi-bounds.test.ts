import { describe, expect, it } from 'vitest';
import { patternMaxLength, publishBounds } from '#shared/api/openapi/bounds';
import { MONEY_PATTERN, QUANTITY_PATTERN } from '#shared/kernel/money';

describe('bounds the document derives from what the schemas enforce', () => {
  it.each([
    [MONEY_PATTERN.source, 16],
    [QUANTITY_PATTERN.source, 13],
    ['^[A-Z]{3}$', 3],
    ['^[a-z][a-z0-9_]{1,63}$', 64],
    ['^(?:ab|c)d?$', 3],
    ['^[\\x21-\\x7e]{1,128}$', 128],
  ])('the longest match of %s is %i characters', (pattern, max) => {
    expect(patternMaxLength(pattern)).toBe(max);
  });

  it.each(['^a+$', '^a*$', '^a{2,}$', '^(\\.\\d+)?$', 'abc', '^(a)\\1$'])(
    '%s has no bound it can state',
    (pattern) => {
      expect(patternMaxLength(pattern)).toBeUndefined();
    },
  );

  it('gives integers a format from their range and strings the length their pattern allows', () => {
    expect(
      publishBounds({
        type: 'object',
        properties: {
          small: { type: 'integer', minimum: 1, maximum: 100 },
          big: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          open: { type: 'integer', minimum: 0 },
          code: { type: 'string', pattern: '^[A-Z]{3}$' },
          stated: { type: 'string', pattern: '^[A-Z]{3}$', maxLength: 2 },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        small: { type: 'integer', minimum: 1, maximum: 100, format: 'int32' },
        big: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' },
        open: { type: 'integer', minimum: 0, format: 'int64' },
        code: { type: 'string', pattern: '^[A-Z]{3}$', maxLength: 3 },
        stated: { type: 'string', pattern: '^[A-Z]{3}$', maxLength: 2 },
      },
    });
  });
});
