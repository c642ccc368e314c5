import { PUBLIC_BOUNDARIES } from '../common';

/**
 * What the five walkthroughs of the demo tenant, Alder Creek Supply Co., around its March 2026
 * month-end close share. Each walkthrough (one file each beside this one) is a numbered path a
 * reader can follow; the `api` column names the call a real tenant would make at that step, read
 * from the operations manifest through `call()`.
 */

export const NONE_OFFLINE = 'none: offline, in CI';

type Step = { step: number; title: string; actor: string; api: string; outcome: string };
export const steps = (rows: [title: string, actor: string, api: string, outcome: string][]): Step[] =>
  rows.map(([title, actor, api, outcome], i) => ({ step: i + 1, title, actor, api, outcome }));

export const boundaries = (...extra: (typeof PUBLIC_BOUNDARIES)[number][]) => [
  ...PUBLIC_BOUNDARIES.map((b) => ({ ...b })),
  ...extra,
];
