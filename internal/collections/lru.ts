/** A small LRU map: get refreshes an entry, set evicts the least recently used past the size. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}

  /** The value of key (made the most recently used), or undefined. */
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Sets key as the most recently used, evicting the least recently used past the size. */
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }

  /** Forgets key. */
  delete(key: string): void {
    this.map.delete(key);
  }
}
