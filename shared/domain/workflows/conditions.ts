import { CANONICAL_DECIMAL, compareDecimals } from '#shared/kernel/money';

/**
 * The condition matcher of workflow rules (docs/api.md section 9.1): pure, no I/O. Conditions
 * read the entity of the event a rule is tried on (the record as the API answers it).
 *
 * - A missing field and a field that is `null` are both absent. Absent equals `null` and
 *   nothing else: `eq null` passes, `neq "x"` passes, `in` passes only when its list holds
 *   `null`, and the order operators and `contains` fail. `exists` passes when the field is present (`value: true`, the default) or
 *   absent (`value: false`).
 * - Numbers compare exactly as decimals: a JSON number or a canonical decimal string
 *   (`"1000.00"`, `"-3"`, `"0.1"`; not `"007"` or `"1e3"`) on both sides is compared by value,
 *   with no floating point, so `"1000.00"` equals `1000` and `"0.30"` equals `"0.3"`.
 * - Otherwise values compare by type and value: a string equals only the same string (case
 *   included), a boolean only the same boolean. The order operators compare two non-numeric
 *   strings by their characters (ISO dates and timestamps order correctly); any other pair of
 *   types is not ordered and fails.
 * - `contains`: a string contains a string (substring, case-sensitive); an array contains a
 *   value equal to one of its elements.
 */

export type ConditionOp = 'eq' | 'neq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'exists';

export interface Condition {
  field: string;
  op: ConditionOp;
  value?: unknown;
}

export interface ConditionResult {
  field: string;
  op: ConditionOp;
  value: unknown;
  /** The entity's value at `field`; null when absent. */
  actual: unknown;
  passed: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The value at a dotted path, or undefined when any step is missing. Only the entity's own
 * properties are followed (never `__proto__` or `constructor`); a digit step indexes an array.
 */
export function resolvePath(entity: unknown, path: string): unknown {
  let current: unknown = entity;
  for (const step of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(step)) return undefined;
      current = current[Number(step)];
    } else if (isRecord(current) && Object.hasOwn(current, step)) {
      current = current[step];
    } else {
      return undefined;
    }
  }
  return current;
}

/** The canonical decimal text of a number or numeric string, else undefined. */
const decimalOf = (v: unknown): string | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const text = String(v);
    return CANONICAL_DECIMAL.test(text) ? text : undefined;
  }
  return typeof v === 'string' && CANONICAL_DECIMAL.test(v) ? v : undefined;
};

export function valuesEqual(a: unknown, b: unknown): boolean {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (x !== undefined && y !== undefined) return compareDecimals(x, y) === 0;
  return a === b;
}

/** -1, 0 or 1 for two numbers or two strings; undefined for any other pair. */
function order(a: unknown, b: unknown): -1 | 0 | 1 | undefined {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (x !== undefined && y !== undefined) return compareDecimals(x, y);
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function passes(op: ConditionOp, actual: unknown, value: unknown): boolean {
  switch (op) {
    case 'exists':
      // `value` is already true when the condition gave none (evaluateCondition).
      return (actual !== null) === value;
    case 'eq':
      return valuesEqual(actual, value);
    case 'neq':
      return !valuesEqual(actual, value);
    case 'in':
      return Array.isArray(value) && value.some((v) => valuesEqual(actual, v));
    case 'contains':
      if (typeof actual === 'string') return typeof value === 'string' && actual.includes(value);
      return Array.isArray(actual) && actual.some((element) => valuesEqual(element, value));
    default: {
      // An absent field (null) is ordered with nothing, so it fails here too.
      const o = order(actual, value);
      if (o === undefined) return false;
      return op === 'gt' ? o > 0 : op === 'gte' ? o >= 0 : op === 'lt' ? o < 0 : o <= 0;
    }
  }
}

export function evaluateCondition(condition: Condition, entity: unknown): ConditionResult {
  const actual = resolvePath(entity, condition.field) ?? null;
  const value = condition.op === 'exists' ? (condition.value ?? true) : condition.value;
  return {
    field: condition.field,
    op: condition.op,
    value,
    actual,
    passed: passes(condition.op, actual, value),
  };
}

/** Every condition with its outcome; `matched` when all pass (no conditions: always). */
export function evaluateConditions(conditions: readonly Condition[], entity: unknown) {
  const results = conditions.map((c) => evaluateCondition(c, entity));
  return { matched: results.every((r) => r.passed), conditions: results };
}
