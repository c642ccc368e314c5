import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthService } from '#tests/infra/synth';

/**
 * The templates the deploy-time checks look at, synthesized offline (no account, no bundling)
 * with one fixed context: the production stage, every optional value set, so each resource a
 * deploy can create is in them.
 */

export type Template = Record<string, unknown>;

export const CHECK_CONTEXT = {
  stage: 'prod',
  alarmEmail: 'oncall@example.com',
  xeroClientId: '0123456789ABCDEF0123456789ABCDEF',
  quickbooksClientId: 'ABntestQuickBooksClientId0001',
  oauthRedirectUrl: 'https://api.example.com/oauth/callback',
} as const;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const LINT_ACKS = join(ROOT, 'infra', 'cfn-lint-acknowledged.json');

export interface Synthesized {
  /** By stack role (`stateful`, `stateless`, `api-routes`): the stack name without its prefix. */
  readonly templates: Record<string, Template>;
  /** The same templates as files, valid while this process runs (CDK removes its temp dir). */
  readonly files: Record<string, string>;
}

/** One synthesis of the whole app; `context` overrides CHECK_CONTEXT (the tests change it). */
export function synthTemplates(context: Record<string, unknown> = {}): Synthesized {
  const service = synthService({ ...CHECK_CONTEXT, ...context });
  const assembly = service.app.synth();
  const templates: Record<string, Template> = {};
  const files: Record<string, string> = {};
  for (const stack of assembly.stacks) {
    const role = stack.stackName.slice(`${service.config.prefix}-`.length);
    templates[role] = stack.template as Template;
    files[role] = stack.templateFullPath;
  }
  return { templates, files };
}
