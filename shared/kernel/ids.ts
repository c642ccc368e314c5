import { v7 } from 'uuid';

/** Time-ordered ids (UUIDv7): a sort key built from one lists newest first without a timestamp index. */
export const newId = (): string => v7();

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
