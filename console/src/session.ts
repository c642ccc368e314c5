import {
  ApiError,
  type AuthMeRead,
  authLogin,
  authMe,
  authRevoke,
  type Client,
  createOpsClient,
} from '../../clients/typescript/index.js';
import { PERMISSIONS, type Permission, type Role } from '../../shared/kernel/policy.js';

/**
 * The signed-in session: the bearer token lives in this module's memory and in sessionStorage
 * (so a reload of the tab keeps it, and closing the tab ends it), never in localStorage or a
 * cookie (docs/api.md, "The operator console").
 */
const TOKEN_KEY = 'ops-console-token';

let token: string | undefined = sessionStorage.getItem(TOKEN_KEY) ?? undefined;
let onSignedOut: (() => void) | undefined;

export const hasToken = (): boolean => token !== undefined;

/**
 * Where the API is: `config.json` beside the console names it in the cloud (the deployment
 * writes it); the local build's has none, and the API is the console's own origin.
 */
export async function apiBaseUrl(): Promise<string> {
  // A static file of the console, not an API call: the client is not configured yet.
  const res = await fetch('/console/config.json', { credentials: 'omit' }).catch(() => undefined);
  if (res?.ok) {
    const config = (await res.json().catch(() => ({}))) as { apiUrl?: unknown };
    if (typeof config.apiUrl === 'string') return config.apiUrl.replace(/\/$/, '');
  }
  return location.origin;
}

export function createClient(baseUrl: string): Client {
  const client = createOpsClient({ baseUrl, token: () => token, retry: { maxAttempts: 2 } });
  // A 401 anywhere (expired or revoked session) ends the session here too: back to sign-in.
  client.interceptors.error.use((error) => {
    if (error instanceof ApiError && error.status === 401 && token !== undefined) forget();
    return error;
  });
  return client;
}

export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

function forget() {
  token = undefined;
  sessionStorage.removeItem(TOKEN_KEY);
  onSignedOut?.();
}

export async function signIn(client: Client, email: string, password: string): Promise<void> {
  const { data } = await authLogin({ client, body: { email, password } });
  token = data.access_token;
  sessionStorage.setItem(TOKEN_KEY, token);
}

/** The session's id is the SHA-256 of its token (docs/api.md section 3), base64url. */
async function tokenId(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
  return btoa(String.fromCharCode(...digest))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** Revokes the session at the API, then forgets the token whatever the answer. */
export async function signOut(client: Client): Promise<void> {
  if (token === undefined) return forget();
  try {
    await authRevoke({ client, path: { token_id: await tokenId(token) } });
  } finally {
    forget();
  }
}

export const loadMe = async (client: Client): Promise<AuthMeRead> => (await authMe({ client })).data;

/** Whether the signed-in member may do `permission` in `tenant`: the API's own role matrix. */
export function may(me: AuthMeRead, tenant: string, permission: Permission): boolean {
  if (me.platform_roles?.includes('platform_admin')) return true;
  const role = me.memberships.find((m) => m.tenant_id === tenant)?.role as Role | undefined;
  return role !== undefined && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}
