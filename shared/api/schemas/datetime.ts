import { describe, timestamp } from './common';

/** The timestamp of every response record; its own module so that no Lambda bundle carries it. */
export const DateTime = describe(timestamp(), 'ISO 8601 timestamp');
