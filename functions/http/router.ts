import type { Method, Operation, Operations } from '#shared/api/manifest';

export interface RouteMatch {
  id: string;
  op: Operation;
  params: Record<string, string>;
}

export type RouteResult =
  { kind: 'match'; route: RouteMatch } | { kind: 'not_found' } | { kind: 'wrong_method'; allow: string[] };

interface CompiledPath {
  regex: RegExp;
  names: string[];
  byMethod: Map<Method, [string, Operation]>;
}

const compile = (path: string) => {
  const names: string[] = [];
  const source = path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{([a-z_]+)\\?\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  return { regex: new RegExp(`^${source}$`), names };
};

/**
 * A group's route table, built from its rows of the operations manifest. 404 and 405 (with the methods a
 * path does allow) come from the table, never from special cases in handlers.
 */
export function routerFor(operations: Operations) {
  const paths = new Map<string, CompiledPath>();
  for (const [id, op] of Object.entries(operations)) {
    let entry = paths.get(op.path);
    if (!entry) {
      entry = { ...compile(op.path), byMethod: new Map() };
      paths.set(op.path, entry);
    }
    entry.byMethod.set(op.method, [id, op]);
  }
  const compiled = [...paths.values()];

  return (method: string, path: string): RouteResult => {
    for (const entry of compiled) {
      const m = entry.regex.exec(path);
      if (!m) continue;
      const found = entry.byMethod.get(method.toUpperCase() as Method);
      if (!found) return { kind: 'wrong_method', allow: [...entry.byMethod.keys()].sort() };
      const params: Record<string, string> = {};
      try {
        entry.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1] ?? '');
        });
      } catch {
        return { kind: 'not_found' };
      }
      return { kind: 'match', route: { id: found[0], op: found[1], params } };
    }
    return { kind: 'not_found' };
  };
}
