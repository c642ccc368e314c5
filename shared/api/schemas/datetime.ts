import * as z from 'zod/mini';
import { describe } from './common';

/** The timestamp of every response record; its own module so that no Lambda bundle carries it. */
export const DateTime = describe(z.iso.datetime({ offset: true }), 'ISO 8601 timestamp');
