import { operationName, type WireCall } from './capture';

/**
 * The write units the contract itself requires of a request (issue 28): every item a transaction
 * writes costs 2 units (the transactional rate at 1 KB), and so does each of its index entries; a
 * plain write costs half. Which entries an item has is read from the replay's
 * ReturnConsumedCapacity=INDEXES (the table and each index the write touched), so the floor
 * counts the entries the design really keeps, at the 1 KB the contract assumes, each once. What
 * the measured units carry above it: items over 1 KB, and an index entry moved by a change of its
 * key (a delete and a put).
 */
export function writeFloor(outputs: unknown[], calls: WireCall[]): number {
  let floor = 0;
  outputs.forEach((out, i) => {
    const op = operationName(calls[i]!.target);
    if (!/Put|Update|Delete|Write/.test(op)) return;
    const rate = op === 'TransactWriteItems' ? 2 : 1;
    const cc = (out as { ConsumedCapacity?: unknown }).ConsumedCapacity;
    for (const c of (Array.isArray(cc) ? cc : cc ? [cc] : []) as {
      GlobalSecondaryIndexes?: Record<string, unknown>;
      LocalSecondaryIndexes?: Record<string, unknown>;
    }[]) {
      const entries =
        Object.keys(c.GlobalSecondaryIndexes ?? {}).length +
        Object.keys(c.LocalSecondaryIndexes ?? {}).length;
      floor += rate * (1 + entries);
    }
  });
  return floor;
}

/** Measured write units over their floor, or null for a request that writes nothing. */
export const floorRatio = (measured: number, floor: number) =>
  floor === 0 ? null : Math.round((measured / floor) * 100) / 100;
