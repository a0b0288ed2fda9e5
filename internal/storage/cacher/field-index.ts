/**
 * The keys of a cache's entries by the value of its indexed field (pods by spec.nodeName, as kube's
 * cacher indexes them), so that a list or watch requiring one value looks at those keys only.
 */
import type { CachedEntry } from './entries.js';

export class FieldIndex {
  private readonly byValue = new Map<string, Set<string>>();

  /** The keys whose entries hold value (a live view; undefined when none). */
  get(value: string): ReadonlySet<string> | undefined {
    return this.byValue.get(value);
  }

  add(e: CachedEntry): void {
    if (e.indexValue === undefined) return;
    let set = this.byValue.get(e.indexValue);
    if (!set) {
      set = new Set();
      this.byValue.set(e.indexValue, set);
    }
    set.add(e.key);
  }

  remove(e: CachedEntry): void {
    if (e.indexValue === undefined) return;
    const set = this.byValue.get(e.indexValue);
    if (!set) return;
    set.delete(e.key);
    if (set.size === 0) this.byValue.delete(e.indexValue);
  }

  clear(): void {
    this.byValue.clear();
  }
}
