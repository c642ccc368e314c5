import type { AdapterDeclaration } from './catalog';

// A connection's scopes against its adapter's declaration: which it may hold, which an operation needs.

export const unsupportedScopes = (adapter: AdapterDeclaration, scopes: readonly string[]) =>
  scopes.filter((s) => !adapter.scopes.supported.includes(s));

/**
 * Whether a connection's scopes allow an operation's: the scope itself, or for a `<scope>.read`
 * the scope it narrows (Xero's `accounting.transactions` is read and write; the `.read` form is
 * the read-only grant). Without this every Xero connection on its default scopes warned that its
 * reads had no scope.
 */
export const grants = (scopes: readonly string[], scope: string) =>
  scopes.includes(scope) || (scope.endsWith('.read') && scopes.includes(scope.slice(0, -'.read'.length)));
