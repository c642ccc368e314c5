import { type AccessDoc, entity } from '../entity';

/**
 * The login: found by email (case-insensitively), it holds `user_id`, the user's profile and the
 * scrypt `password_hash`; its conditional Put makes emails unique. Read by the identity store
 * only, never returned as a record. Its items carry `entity: 'email'`.
 */
export const login = /* @__PURE__ */ entity('email', { table: { pk: 'EMAIL#{email:lower}', sk: 'EMAIL' } });

export const access = {
  entity: login,
  patterns: [
    {
      name: 'Find login by email',
      sortKey: 'equals',
      notes: 'holds user_id and the scrypt hash; its conditional Put makes emails unique',
    },
  ],
} satisfies AccessDoc<typeof login>;
