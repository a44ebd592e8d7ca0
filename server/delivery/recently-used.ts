/** Moves a kept entry to the most recently used end of its map (a Map keeps insertion order). */
export function touch<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.delete(key);
  map.set(key, value);
  return value;
}
