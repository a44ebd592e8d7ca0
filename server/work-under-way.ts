/**
 * Work that runs beside the answer (mail sends, activity recordings), counted per key (an app's
 * context or mail configuration) until it ends, so close and tests can wait for it to settle.
 */
export function workUnderWay<K extends object>() {
  const running = new WeakMap<K, Set<Promise<void>>>();
  return {
    /** Counts `ended` (a promise that never rejects) as under way for `key` until it settles. */
    add(key: K, ended: Promise<void>): void {
      let set = running.get(key);
      if (!set) running.set(key, (set = new Set()));
      const under = set;
      under.add(ended);
      void ended.finally(() => under.delete(ended));
    },
    /** Resolves once every piece of work under way for `key` has ended, including work started meanwhile. */
    async settled(key: K): Promise<void> {
      for (let set = running.get(key); set && set.size > 0;) await Promise.all(set);
    },
  };
}
