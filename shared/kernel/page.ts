/**
 * One page of a list (docs/api.md section 4). Every list port takes a `PageRequest` and answers a
 * `Page`; the cursor is the store's signed position (`./cursor.ts`), opaque to the domain.
 */

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
