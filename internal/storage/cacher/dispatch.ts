/**
 * One event of a cache's window and what dispatching it to many watchers shares: the watch event
 * objects (encoded once) and each object's decoded form and selector attributes, computed at most
 * once however many watchers look.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { ObjectAttrs, SelectionPredicate } from '../interface.js';
import { CachedWatchEvent, materialize, type CachedEntry } from './entries.js';

/** One event of the window. */
export interface WindowEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly key: string;
  readonly rv: number;
  /** The new state; for DELETED, the last state with the deletion's revision. */
  readonly cur: CachedEntry;
  /** The state before, when there was one. */
  readonly prev: CachedEntry | undefined;
  readonly at: number;
}

/** Per dispatched event: shared event objects and the object attributes, computed at most once. */
export class Dispatch {
  private events: Partial<Record<string, CachedWatchEvent>> = {};
  private attrsCache = new Map<'cur' | 'prev', ObjectAttrs>();
  private objects = new Map<'cur' | 'prev', KubeObject>();
  constructor(readonly ev: WindowEvent) {}

  event(type: 'ADDED' | 'MODIFIED' | 'DELETED'): CachedWatchEvent {
    const e = this.events[type];
    if (e) return e;
    const made = new CachedWatchEvent(type, this.ev.cur);
    this.events[type] = made;
    return made;
  }

  private object(which: 'cur' | 'prev'): KubeObject {
    let o = this.objects.get(which);
    if (!o) {
      const entry = which === 'cur' ? this.ev.cur : this.ev.prev;
      o = materialize(entry as CachedEntry);
      this.objects.set(which, o);
    }
    return o;
  }

  matches(pred: SelectionPredicate, which: 'cur' | 'prev'): boolean {
    if (pred.everything) return true;
    if (pred.attrs && pred.matchesAttrs) {
      let a = this.attrsCache.get(which);
      if (!a) {
        a = pred.attrs(this.object(which));
        this.attrsCache.set(which, a);
      }
      return pred.matchesAttrs(a);
    }
    return pred.matches(this.object(which));
  }
}
