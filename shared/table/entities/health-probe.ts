import { type AccessDoc, entity } from '../entity';

/**
 * The key `GET /health` reads to learn whether the table answers (docs/api.md section 1). No
 * item is ever written there: the read of a missing key is the cheapest one that still goes to
 * the table. The public function may read this partition and no other (IAM
 * `dynamodb:LeadingKeys`, infra/constructs/service-function.ts).
 */
export const healthProbe = /* @__PURE__ */ entity('health_probe', {
  table: { pk: 'HEALTH', sk: 'HEALTH' },
});

export const access = {
  entity: healthProbe,
  patterns: [
    {
      name: 'Health probe',
      sortKey: 'equals',
      notes:
        'key-only GetItem of a key that holds no item; the answer is cached for 2 s per function instance',
    },
  ],
} satisfies AccessDoc<typeof healthProbe>;
