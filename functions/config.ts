import { systemClock } from '#shared/kernel/ids';

/** Settings every function reads once, at module load. */
export const SESSION_TTL_SECONDS = Number(process.env.OPS_SESSION_TTL_SECONDS ?? 12 * 3600);

export const clock = systemClock;
