import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonBody } from '#functions/http/json-body';
import { MalformedJsonError, ValidationError } from '#shared/kernel/errors';

/** docs/api.md section 2: unparseable text is 400; valid JSON no schema may take is 422 with its path. */

const failure = (text: string | undefined) => {
  try {
    parseJsonBody(text, false);
  } catch (err) {
    return err;
  }
  throw new Error(`parsed: ${text}`);
};

describe('parseJsonBody', () => {
  it('parses JSON, also base64-encoded', () => {
    expect(parseJsonBody('{"a":[1,"x",null]}', false)).toEqual({ a: [1, 'x', null] });
    expect(parseJsonBody(Buffer.from('{"a":1}').toString('base64'), true)).toEqual({ a: 1 });
  });

  it('answers text that is not JSON, and a missing body, 400 malformed_json', () => {
    for (const text of ['{"a":', '', undefined, "{'a':1}"]) {
      expect(failure(text)).toBeInstanceOf(MalformedJsonError);
    }
  });

  it('answers a __proto__ key anywhere 422 with its path, never 400', () => {
    const err = failure('{"title":"x","__proto__":{"admin":true},"evidence":{"a":[{"__proto__":1}]}}');
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual(
      expect.arrayContaining([
        { path: '__proto__', code: 'invalid_key', message: 'not allowed as a key' },
        { path: 'evidence.a.0.__proto__', code: 'invalid_key', message: 'not allowed as a key' },
      ]),
    );
    // `constructor` and `toString` are ordinary keys in JSON: the schemas decide about them.
    expect(parseJsonBody('{"constructor":{"prototype":1},"toString":2}', false)).toEqual({
      constructor: { prototype: 1 },
      toString: 2,
    });
  });

  it('answers a number beyond a double (read as Infinity) 422 with its path', () => {
    const err = failure('{"impact":{"amount":1e309},"list":[-1e400]}');
    expect((err as ValidationError).errors).toEqual(
      expect.arrayContaining([
        { path: 'impact.amount', code: 'invalid_value', message: 'must be a finite number' },
        { path: 'list.0', code: 'invalid_value', message: 'must be a finite number' },
      ]),
    );
    expect(parseJsonBody('{"n":1.7976931348623157e308}', false)).toEqual({ n: Number.MAX_VALUE });
  });

  it(`answers nesting deeper than ${MAX_JSON_DEPTH} levels 422, even thousands deep`, () => {
    const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH), false)).not.toThrow();
    const err = failure(nested(MAX_JSON_DEPTH + 1));
    expect((err as ValidationError).errors).toEqual([
      { path: Array(MAX_JSON_DEPTH).fill('a').join('.'), code: 'too_big', message: expect.any(String) },
    ]);
    expect(failure(nested(50_000))).toBeInstanceOf(ValidationError);
    expect(failure('['.repeat(100_000) + ']'.repeat(100_000))).toBeInstanceOf(ValidationError);
  });

  it('reports at most 20 offences of a body full of them', () => {
    const err = failure(`[${Array(1000).fill('1e999').join(',')}]`);
    expect((err as ValidationError).errors).toHaveLength(20);
  });
});
