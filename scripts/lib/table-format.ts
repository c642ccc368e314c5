/** How the docs' tables print a bench figure. */

export const r2 = (n: number) => Math.round(n * 100) / 100;
export const r1 = (n: number) => Math.round(n * 10) / 10;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const verdict = (value: number | null, limit: number, atLeast = false) =>
  value === null ? '' : (atLeast ? value >= limit : value <= limit) ? 'ok' : '**over**';
export const paired = (p: { ratio: number; spread: number[]; precision: number }, pairs?: number) =>
  `${r2(p.ratio)} [${r2(p.spread[0]!)}–${r2(p.spread[1]!)}] ±${r1(p.precision * 100)}%${pairs ? ` n=${pairs}` : ''}`;
export const minute = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';
/** A side's warm overhead above its floor in ms, or the floor check's verdict instead of a number. */
export const overheadCell = (o: { overheadP50?: number | null; floorError?: string | null }) =>
  o.floorError
    ? '**measurement error**: floor not below handler'
    : o.overheadP50 === null || o.overheadP50 === undefined
      ? '-'
      : `${r2(o.overheadP50)}`;
