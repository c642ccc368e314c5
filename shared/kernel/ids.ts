import { createHash } from 'node:crypto';
import { v7 } from 'uuid';

/** Time-ordered ids (UUIDv7): a sort key built from one lists newest first without a timestamp index. */
export const newId = (): string => v7();

/**
 * A UUIDv7 that is the same every time for the same time and parts: the time `at` in its
 * timestamp bits (so it sorts like any id of that moment), and the SHA-256 of the parts in its
 * 74 random bits. Work that must happen once per input (a workflow rule's action for one event)
 * writes its record under such an id with a not-exists condition, so a redelivery finds it there.
 */
export function derivedId(at: string, ...parts: string[]): string {
  const hash = createHash('sha256').update(parts.join('\u0000')).digest();
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Date.parse(at), 0, 6);
  hash.copy(bytes, 6, 0, 10);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
