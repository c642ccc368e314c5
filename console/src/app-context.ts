import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AuthMeRead, Client } from '../../clients/typescript/index.js';
import type { Permission } from '../../shared/kernel/policy.js';
import { may } from './session.js';

/** What every screen of a signed-in member needs: the client, who they are, what they may do. */
export interface Console {
  client: Client;
  me: AuthMeRead;
  tenant: string;
  can(permission: Permission): boolean;
  /** Asks the header to count the unread inbox items again (after the inbox changed). */
  refreshUnread(): void;
}

export const ConsoleContext = createContext<Console | undefined>(undefined);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside a signed-in tenant');
  return value;
}

export const consoleFor = (
  client: Client,
  me: AuthMeRead,
  tenant: string,
  refreshUnread: () => void,
): Console => ({
  client,
  me,
  tenant,
  can: (permission) => may(me, tenant, permission),
  refreshUnread,
});

/** A path inside the console of one tenant. */
export const tenantPath = (tenant: string, screen: string) =>
  `/console/t/${encodeURIComponent(tenant)}/${screen}`;
