/** Published us-east-1 prices (on-demand), per the issue. */
export const PRICES = {
  httpApiPerMillion: 1.0,
  lambdaRequestsPerMillion: 0.2,
  lambdaArmGbSecond: 0.0000133334,
  dynamoWriteUnitPerMillion: 0.625,
  dynamoReadUnitPerMillion: 0.125,
  sqsPerMillion: 0.4,
} as const;

export const PRICING_ASSUMPTIONS = [
  'HTTP API $1.00/M requests; Lambda arm64 $0.20/M requests + $0.0000133334/GB-s; DynamoDB on-demand $0.625/M write units, $0.125/M read units; SQS $0.40/M requests.',
  'API functions have 1024 MB (infra/config.ts FUNCTION_PROFILES.api); billed duration = the warm p50 measured here, rounded up to 1 ms (DynamoDB Local on this machine, not the cloud: the DynamoDB share of real durations will differ).',
  'Request units are what DynamoDB Local reports via ReturnConsumedCapacity=INDEXES for the identical requests (table + every GSI write; transactions count double; strongly consistent reads 1 unit per 4 KB).',
  'Authorizer: cached by API Gateway (TTL 60 s per token), so its cost is amortised over the requests of that minute and not included per request; its own cost per invocation is listed separately.',
  'Free tiers, data transfer, CloudWatch Logs ingestion and X-Ray are excluded.',
];

export interface CostInput {
  memoryMb: number;
  durationMs: number;
  readUnits: number;
  writeUnits: number;
  sqsCalls?: number;
  viaHttpApi?: boolean;
}

/** USD per million requests. */
export function costPerMillion(c: CostInput): number {
  const gbSeconds = (c.memoryMb / 1024) * (Math.ceil(c.durationMs) / 1000);
  return (
    (c.viaHttpApi === false ? 0 : PRICES.httpApiPerMillion) +
    PRICES.lambdaRequestsPerMillion +
    gbSeconds * PRICES.lambdaArmGbSecond * 1e6 +
    c.writeUnits * PRICES.dynamoWriteUnitPerMillion +
    c.readUnits * PRICES.dynamoReadUnitPerMillion +
    (c.sqsCalls ?? 0) * PRICES.sqsPerMillion
  );
}
