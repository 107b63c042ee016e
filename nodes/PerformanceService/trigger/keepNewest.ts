/** Sets `key` as the newest entry of `map`, then forgets the oldest entries beyond `max`. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
	map.delete(key);
	map.set(key, value);
	for (const oldest of map.keys()) {
		if (map.size <= max) break;
		map.delete(oldest);
	}
}
