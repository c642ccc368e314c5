import { membersList } from '../../../clients/typescript/index.js';
import { useConsole } from '../app-context.js';
import { useLoad } from './load.js';

/**
 * The tenant's members by user id, so a timeline or the audit log names people, not ids. A
 * member who has left (or an actor of the system) falls back to the id.
 */
export function useMemberNames(): (id: string | null | undefined) => string {
  const { client, tenant } = useConsole();
  const members = useLoad(
    async () =>
      (await membersList({ client, path: { tenant_id: tenant }, query: { limit: 100 } })).data.items,
    [tenant],
  );
  const names = new Map((members.data ?? []).map((m) => [m.user_id, m.display_name]));
  return (id) => (id ? (names.get(id) ?? id) : 'the system');
}
