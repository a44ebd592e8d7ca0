interface Entry<V> {
  value: V;
  /** Used since it was set or last passed over. */
  used: boolean;
}

/**
 * A Map that lets go of what was least recently used, approximately ("second chance", the clock
 * pages are evicted by): a use only marks its entry, and the entry to let go of next is the oldest
 * one not marked, the marked ones passed over being unmarked and moved to the newest end. Moving
 * an entry on every use (a delete and a set), three times a thumbnail answered from memory, cost
 * 2-3 µs of its 33.
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  get size(): number {
    return this.entries.size;
  }

  /** The value, without counting as a use. */
  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The value, counting as a use. */
  use(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** Sets the value as the newest entry, counting as a use (so it is not the next to go). */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, used: true });
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The entry to let go of next: the oldest not used since it was last passed over. */
  leastRecentlyUsed(): [K, V] | undefined {
    // An entry moved to the end comes round again in this same loop, unmarked.
    for (const [key, entry] of this.entries) {
      if (!entry.used) return [key, entry.value];
      entry.used = false;
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return undefined;
  }

  /** The keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
