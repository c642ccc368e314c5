import {
  Document,
  Spectral,
  type ISpectralDiagnostic,
  type RulesetDefinition,
} from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { describe, expect, it } from 'vitest';
import { serviceOpenApi } from '#shared/demo/openapi';
import { ACKNOWLEDGED, type LintContext, RULES_OFF } from './openapi-lint-acknowledged';

/**
 * The generated OpenAPI document linted by Spectral with its OpenAPI rules (`spectral:oas`,
 * recommended) and the OWASP API Security ruleset 2.0: every finding is either fixed at the source
 * (the zod schemas, the builder) or acknowledged with a reason in openapi-lint-acknowledged.ts.
 */

const doc = serviceOpenApi();

/** Component schemas a request body or parameter reaches, directly or through `$ref`s. */
function requestSchemas(document: Record<string, unknown>): Set<string> {
  const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  const refs = (node: unknown, out: string[]): string[] => {
    if (Array.isArray(node)) for (const n of node) refs(n, out);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/'))
          out.push(v.slice(21));
        else refs(v, out);
      }
    return out;
  };
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const item of Object.values(document.paths as Record<string, Record<string, unknown>>))
    for (const op of Object.values(item) as { requestBody?: unknown; parameters?: unknown }[])
      queue.push(...refs([op.requestBody, op.parameters], []));
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...refs(schemas[name], []));
  }
  return seen;
}

async function lint(document: Record<string, unknown>): Promise<ISpectralDiagnostic[]> {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[oas as RulesetDefinition, 'recommended'], owasp as RulesetDefinition],
    rules: Object.fromEntries(RULES_OFF.map((r) => [r.rule, 'off'])),
  } as RulesetDefinition);
  return spectral.run(new Document(JSON.stringify(document), Parsers.Json, 'openapi.json'));
}

const ctx: LintContext = { doc, requestSchemas: requestSchemas(doc) };
const findings = await lint(doc);

describe('Spectral (spectral:oas + OWASP API Security) on the generated document', () => {
  it('leaves no finding unacknowledged', () => {
    const open = findings.filter(
      (f) => !ACKNOWLEDGED.some((a) => a.rule === f.code && a.applies(f.path, ctx)),
    );
    expect(open.map((f) => `${String(f.code)} at ${f.path.join('.')}: ${f.message}`)).toEqual([]);
  });

  it('acknowledges nothing that no longer occurs', () => {
    const stale = ACKNOWLEDGED.filter(
      (a) => !findings.some((f) => f.code === a.rule && a.applies(f.path, ctx)),
    );
    expect(stale.map((a) => `${a.rule} (${a.where})`)).toEqual([]);
  });

  it('still reports what it should: a request string without maxLength is an open finding', async () => {
    // The acknowledgements must not swallow a real gap: an unbounded input string stays an error.
    const schemas = (doc.components as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas;
    const taskCreate = structuredClone(schemas.TaskCreate!);
    taskCreate.properties.title = { type: 'string', minLength: 2 };
    const small = { ...doc, paths: {}, components: { schemas: { TaskCreate: taskCreate } } };
    const open = (await lint(small)).filter(
      (f) =>
        !ACKNOWLEDGED.some(
          (a) =>
            a.rule === f.code && a.applies(f.path, { doc: small, requestSchemas: new Set(['TaskCreate']) }),
        ),
    );
    expect(open.map((f) => `${String(f.code)} ${f.path.join('.')}`)).toContain(
      'owasp:api4:2023-string-limit components.schemas.TaskCreate.properties.title',
    );
  });
});
