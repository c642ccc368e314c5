import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthService } from '#tests/infra/synth';
import type { Template } from './stateful-diff';

/**
 * The templates the deploy-time checks look at, and the last release's kept in the repository
 * (`releases/templates/`, written by `npm run release:templates`). Both are synthesized offline
 * (no account, no bundling) with one fixed context: the production stage, every optional value
 * set, so each resource a deploy can create is in them, and a difference between the two comes
 * from the code, never from who synthesized it.
 */

export const CHECK_CONTEXT = {
  stage: 'prod',
  alarmEmail: 'oncall@example.com',
  xeroClientId: '0123456789ABCDEF0123456789ABCDEF',
  quickbooksClientId: 'ABntestQuickBooksClientId0001',
  oauthRedirectUrl: 'https://api.example.com/oauth/callback',
} as const;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RELEASED_DIR = join(ROOT, 'releases', 'templates');
export const CHANGELOG = join(ROOT, 'CHANGELOG.md');
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

interface ReleaseInfo {
  /** The package version the templates were released at: CHANGELOG.md's heading for it. */
  readonly version: string;
  readonly stacks: string[];
}

export function readReleased(dir: string = RELEASED_DIR): {
  version: string;
  templates: Record<string, Template>;
} {
  const info = JSON.parse(readFileSync(join(dir, 'release.json'), 'utf8')) as ReleaseInfo;
  const templates: Record<string, Template> = {};
  for (const stack of info.stacks)
    templates[stack] = JSON.parse(readFileSync(join(dir, `${stack}.json`), 'utf8')) as Template;
  return { version: info.version, templates };
}

export function writeReleased(
  templates: Record<string, Template>,
  version: string,
  dir: string = RELEASED_DIR,
) {
  mkdirSync(dir, { recursive: true });
  const stacks = Object.keys(templates).sort();
  for (const stack of stacks)
    writeFileSync(join(dir, `${stack}.json`), `${JSON.stringify(templates[stack], null, 1)}\n`);
  writeFileSync(join(dir, 'release.json'), `${JSON.stringify({ version, stacks }, null, 2)}\n`);
}
