import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS } from '#shared/api/manifest';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const FUNCTIONS_DIR = join(REPO_ROOT, 'functions');

export type FunctionKind = 'api' | 'authorizer' | 'relay' | 'worker';

export interface BenchFunction {
  /** `api-exceptions`, `authorizer`, `relay`, `worker-internal`, ... */
  name: string;
  kind: FunctionKind;
  /** Route group, for `api` functions. */
  group?: string;
  /** Absolute entry file; it exports `handler`. */
  entry: string;
}

/**
 * Every Lambda function of the service, discovered rather than listed: one per route group of
 * GROUPS (a new group is benchmarked and budgeted without touching the bench), the authorizer,
 * and the delivery path (relay and workers) when its files exist.
 */
export function discoverFunctions(): BenchFunction[] {
  const out: BenchFunction[] = [];
  const groups = new Set<string>(GROUPS);
  // A group whose handler exists but is not wired into GROUPS yet is still measured.
  if (existsSync(join(FUNCTIONS_DIR, 'notifications', 'handler.ts'))) groups.add('notifications');
  for (const group of groups) {
    const entry = join(FUNCTIONS_DIR, group, 'handler.ts');
    if (existsSync(entry)) out.push({ name: `api-${group}`, kind: 'api', group, entry });
  }
  const authorizer = join(FUNCTIONS_DIR, 'authorizer', 'handler.ts');
  if (existsSync(authorizer)) out.push({ name: 'authorizer', kind: 'authorizer', entry: authorizer });
  const relay = join(FUNCTIONS_DIR, 'relay', 'handler.ts');
  if (existsSync(relay)) out.push({ name: 'relay', kind: 'relay', entry: relay });
  const workers = join(FUNCTIONS_DIR, 'workers');
  if (existsSync(workers)) {
    for (const file of readdirSync(workers).sort()) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.d.ts')) continue;
      const entry = join(workers, file);
      if (!/export\s+(const|async\s+function|function)\s+handler\b/.test(readFileSync(entry, 'utf8')))
        continue;
      out.push({ name: `worker-${file.replace(/\.ts$/, '')}`, kind: 'worker', entry });
    }
  }
  return out;
}
