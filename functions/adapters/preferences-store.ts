import type { Preferences, PreferencesStore } from '#shared/domain/preferences/ports';
import { preferences, preferencesRecord } from '#shared/table/entities/preferences';
import { reader } from '#shared/table/entity';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { transact } from './transact';
import { getRecord } from './records';

export const toPreferences = /* @__PURE__ */ reader<Preferences>()(preferencesRecord);

/** A member's preferences: one item per member and tenant, replaced whole with its audit event. */
export const preferencesStore = (db: Db): PreferencesStore => ({
  get: (owner) => getRecord(db, preferences.key(owner), toPreferences),
  async put(owner, next, audit) {
    const result = await transact(db, [{ Put: { Item: preferences.item(next, owner) } }, auditPut(audit)]);
    if (!result.ok) throw new Error('preferences write failed a condition');
  },
});
