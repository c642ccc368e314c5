import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_MAX_LENGTH } from '#shared/api/schemas/common';

/** docs/api.md sections 7 and 11: the check and the published document agree on the key's limits. */

const document = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const apiDoc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

describe('Idempotency-Key', () => {
  it('is 1 to 255 printable ASCII characters for the server', () => {
    expect(IDEMPOTENCY_KEY_MAX_LENGTH).toBe(255);
    expect(IDEMPOTENCY_KEY.test('k'.repeat(255))).toBe(true);
    expect(IDEMPOTENCY_KEY.test('!~')).toBe(true);
    for (const bad of ['', 'k'.repeat(256), 'has space', 'tab\t', 'é'])
      expect(IDEMPOTENCY_KEY.test(bad)).toBe(false);
  });

  it('has the same limits in the OpenAPI document, on every operation that honours it', () => {
    const idempotent = (Object.values(OPERATIONS) as Operation[]).filter((op) => op.idempotent);
    expect(idempotent.length).toBeGreaterThanOrEqual(4);
    for (const op of idempotent) {
      const params = document.paths[op.path][op.method.toLowerCase()].parameters as {
        name: string;
        schema: { maxLength: number; minLength: number; pattern: string };
      }[];
      const header = params.find((p) => p.name === 'Idempotency-Key')!;
      expect(header.schema, op.path).toMatchObject({ minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH });
      expect(new RegExp(header.schema.pattern).test('k'.repeat(255))).toBe(true);
      expect(new RegExp(header.schema.pattern).test('k'.repeat(256))).toBe(false);
    }
  });

  it('has the same limits in docs/api.md', () => {
    expect(apiDoc).toContain(`header of 1 to\n${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`);
    expect(apiDoc).toContain(
      `| \`Idempotency-Key\` | 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
    );
  });
});
