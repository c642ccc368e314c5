import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { ESBUILD_OPTIONS } from '#infra/bundling';
import { REPO_ROOT } from './functions';

/**
 * Bundles exactly as the deployed functions are bundled (infra/bundling.ts), and the SDK-only
 * floor bundle beside each: the AWS SDK clients and commands that function imports, plus a
 * generic executor that sends given requests through them, and nothing else. The floor is the
 * smallest bundle any function making those calls could have, so `bytes / floor` is the cost of
 * everything that is not the SDK (middy, zod, Powertools, our code).
 */

export type Variant = { format?: 'cjs' | 'esm'; sourcemap?: boolean };

export interface Bundle {
  bytes: number;
  code: string;
  metafile: Metafile;
  /** SDK package -> value names imported from it by project code (not `import type`). */
  sdkImports: Map<string, Set<string>>;
  /** Output bytes per top-level package (`src` for project code), largest first. */
  breakdown: [string, number][];
}

const ESM_BANNER =
  "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

const options = (variant: Variant): BuildOptions => {
  const format = variant.format ?? 'cjs';
  return {
    ...ESBUILD_OPTIONS,
    // A profiled run (bench/run.ts BENCH_CPU_PROF) names what it measures.
    ...(process.env.BENCH_CPU_PROF ? { minify: false } : {}),
    format,
    sourcemap: variant.sourcemap ? 'inline' : ESBUILD_OPTIONS.sourcemap,
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
    // Bundled CJS dependencies call require() for node builtins; ESM output needs a real one.
    ...(format === 'esm' ? { banner: { js: ESM_BANNER } } : {}),
  };
};

const packageOf = (input: string): string => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return m ? m[1]! : 'src';
};

const IMPORT_RE = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+['"](@aws-sdk\/[^'"]+)['"]/g;

/** The SDK names project sources import, from the metafile's inputs outside node_modules. */
export function sdkImportsOf(metafile: Metafile): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const [input, info] of Object.entries(metafile.inputs)) {
    if (input.includes('node_modules')) continue;
    if (!info.imports.some((i) => i.original?.startsWith('@aws-sdk/'))) continue;
    const text = readFileSync(join(REPO_ROOT, input), 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      if (m[1]) continue;
      const names = m[2]!
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '))
        .map((s) => s.split(/\s+as\s+/)[0]!.trim());
      if (!names.length) continue;
      const set = found.get(m[3]!) ?? new Set<string>();
      for (const n of names) set.add(n);
      found.set(m[3]!, set);
    }
  }
  return found;
}

const finish = (result: Awaited<ReturnType<typeof build>>, withImports: boolean): Bundle => {
  const file = result.outputFiles!.find((f) => f.path.endsWith('.js'))!;
  const output = Object.values(result.metafile!.outputs).find((o) => o.entryPoint !== undefined || true)!;
  const by = new Map<string, number>();
  for (const [input, v] of Object.entries(output.inputs)) {
    const k = packageOf(input);
    by.set(k, (by.get(k) ?? 0) + v.bytesInOutput);
  }
  return {
    bytes: output.bytes,
    code: file.text,
    metafile: result.metafile!,
    sdkImports: withImports ? sdkImportsOf(result.metafile!) : new Map(),
    breakdown: [...by].sort((a, b) => b[1] - a[1]),
  };
};

/**
 * Bundles are kept for the process's life: the budget tests share one worker (vitest.config.ts)
 * and each asks for the same functions, which the sources cannot change under them.
 */
const built = new Map<string, Promise<Bundle>>();
const once = (key: string, make: () => Promise<Bundle>) => {
  let bundle = built.get(key);
  if (!bundle) built.set(key, (bundle = make()));
  return bundle;
};

export function bundleFunction(entry: string, variant: Variant = {}): Promise<Bundle> {
  const path = relative(REPO_ROOT, resolve(REPO_ROOT, entry));
  return once(`${path} ${JSON.stringify(variant)}`, async () => {
    const result = await build({
      ...options(variant),
      entryPoints: [entry],
      outfile: join(REPO_ROOT, 'bench', '.build', `${path.replace(/[/.]/g, '_')}.js`),
    });
    return finish(result, true);
  });
}

/** The low-level command each DocumentClient command sends; the floor replays wire requests with it. */
const LOW_LEVEL: Record<string, string> = {
  GetCommand: 'GetItemCommand',
  PutCommand: 'PutItemCommand',
  UpdateCommand: 'UpdateItemCommand',
  DeleteCommand: 'DeleteItemCommand',
  QueryCommand: 'QueryCommand',
  ScanCommand: 'ScanCommand',
  TransactWriteCommand: 'TransactWriteItemsCommand',
  TransactGetCommand: 'TransactGetItemsCommand',
  BatchGetCommand: 'BatchGetItemCommand',
  BatchWriteCommand: 'BatchWriteItemCommand',
};

/** Wire target (`X-Amz-Target` operation) of a low-level command class name. */
const operationOf = (command: string) => command.replace(/Command$/, '');

const CLIENT_OF: Record<string, { client: string; prefix: string }> = {
  '@aws-sdk/client-dynamodb': { client: 'DynamoDBClient', prefix: 'DynamoDB_20120810.' },
  '@aws-sdk/client-sqs': { client: 'SQSClient', prefix: 'AmazonSQS.' },
  '@aws-sdk/client-dynamodb-streams': {
    client: 'DynamoDBStreamsClient',
    prefix: 'DynamoDBStreams_20120810.',
  },
};

/**
 * The floor entry: imports what the function imports from the SDK (kept alive), and exports
 * `handler({ calls: [{ target, input }] })`, which sends each wire request, in order, through
 * the low-level client of its service: the cold processes' floor, which pays the SDK's own load
 * and first call. (The warm floor sends the bare requests instead: bench/lib/wire.ts.)
 */
export function floorSource(imports: Map<string, Set<string>>): string {
  const wanted = new Map<string, Set<string>>();
  const add = (pkg: string, name: string) => {
    const set = wanted.get(pkg) ?? new Set<string>();
    set.add(name);
    wanted.set(pkg, set);
  };
  for (const [pkg, names] of imports) {
    for (const n of names) add(pkg, n);
    if (pkg === '@aws-sdk/lib-dynamodb') {
      add('@aws-sdk/client-dynamodb', 'DynamoDBClient');
      for (const n of names) if (LOW_LEVEL[n]) add('@aws-sdk/client-dynamodb', LOW_LEVEL[n]!);
    }
    if (CLIENT_OF[pkg]) add(pkg, CLIENT_OF[pkg]!.client);
  }
  const lines: string[] = [];
  const keep: string[] = [];
  const routes: string[] = [];
  let i = 0;
  for (const [pkg, names] of wanted) {
    const alias = [...names].map((n) => `${n} as s${i}_${n}`);
    lines.push(`import { ${alias.join(', ')} } from '${pkg}';`);
    for (const n of names) keep.push(`s${i}_${n}`);
    const svc = CLIENT_OF[pkg];
    if (svc) {
      lines.push(`const c${i} = new s${i}_${svc.client}({});`);
      for (const n of names) {
        if (n.endsWith('Command')) routes.push(`'${svc.prefix}${operationOf(n)}': [c${i}, s${i}_${n}]`);
      }
    }
    i++;
  }
  lines.push(`globalThis.__sdkFloorKeep = [${keep.join(', ')}];`);
  lines.push(`const routes = { ${routes.join(', ')} };`);
  lines.push(`export const handler = async (event) => {
  const out = [];
  for (const call of event.calls ?? []) {
    const route = routes[call.target];
    if (!route) throw new Error('floor bundle cannot send ' + call.target);
    out.push(await route[0].send(new route[1](call.input)));
  }
  return out;
};`);
  return lines.join('\n');
}

export function bundleFloor(imports: Map<string, Set<string>>, variant: Variant = {}): Promise<Bundle> {
  const contents = floorSource(imports);
  return once(`floor ${contents} ${JSON.stringify(variant)}`, async () => {
    const result = await build({
      ...options(variant),
      stdin: { contents, resolveDir: REPO_ROOT, sourcefile: 'sdk-floor.js', loader: 'js' },
      outfile: join(REPO_ROOT, 'bench', '.build', 'floor.js'),
    });
    return finish(result, false);
  });
}
