/** A value kept under the list_totals versions it was read under. */
export interface Kept<T> {
  versions: string;
  value: Promise<T>;
}

/**
 * Values read from a database and kept, per database and key, until the list_totals versions they
 * were read under change (rows added or removed, a column changed: the triggers of migrations
 * create_list_totals and add_list_order_versions bump them in the same transaction). Concurrent
 * callers wait for the same read; a failed read is forgotten; the least recently used key goes
 * first beyond `maxKeys`.
 */
export function versionedMemo<T>(maxKeys: number) {
  const stores = new WeakMap<object, Map<string, Kept<T>>>();
  function memo(db: object, key: string, versions: string, read: () => Promise<T>): Promise<T>;
  /** Only what is kept under these versions, without reading. */
  function memo(db: object, key: string, versions: string): Promise<T> | undefined;
  function memo(db: object, key: string, versions: string, read?: () => Promise<T>): Promise<T> | undefined {
    let kept = stores.get(db);
    if (!kept) stores.set(db, (kept = new Map()));
    const found = kept.get(key);
    if (found && found.versions === versions) {
      kept.delete(key);
      kept.set(key, found);
      return found.value;
    }
    if (!read) return undefined;
    const entry: Kept<T> = { versions, value: read() };
    const store = kept;
    store.set(key, entry);
    entry.value.catch(() => store.get(key) === entry && store.delete(key));
    while (store.size > maxKeys) store.delete(store.keys().next().value!);
    return entry.value;
  }
  /** What is kept for `key` under whichever versions it was read, for a caller that checks them itself. */
  const latest = (db: object, key: string): Readonly<Kept<T>> | undefined => stores.get(db)?.get(key);
  return Object.assign(memo, { latest });
}
