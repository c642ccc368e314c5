import type { Wait } from '#shared/domain/accounting/ports';

/** The `Wait` port on a real timer: the pause between paced calls to a target. */
export const timerWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
