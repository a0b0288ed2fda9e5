/**
 * --event-ttl (kube's ServerRunOptions.EventTTL): how long events live in etcd. Every write of a
 * core/v1 or events.k8s.io/v1 Event is bound to an etcd lease of this many seconds (leases are
 * shared per --lease-reuse-duration-seconds), so etcd itself removes the event and every watch sees
 * it DELETED.
 */
import { durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated event options. */
export interface EventOptions {
  /** The TTL in milliseconds (whole seconds reach etcd, as kube's uint64(ttl.Seconds())). */
  readonly ttlMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly events?: EventOptions;
  }
}

/** kube's default: one hour. */
export const defaultEventOptions: EventOptions = { ttlMs: 3_600_000 };

/** The TTL in seconds etcd is given, at least 1 (kube truncates to whole seconds). */
export function eventTTLSeconds(options: EventOptions): number {
  return Math.max(1, Math.floor(options.ttlMs / 1000));
}

/** The --event-ttl flag group. */
export const eventFlags: FlagGroup<'events'> = {
  register(y) {
    y.option('event-ttl', { type: 'string', default: '1h0m0s', describe: 'Amount of time to retain events.' });
  },
  validate(p) {
    const ttlMs = durationFlag('event-ttl', p['event-ttl'] ?? '1h0m0s');
    if (ttlMs <= 0) throw new FlagError('--event-ttl must be greater than 0');
    return { events: { ttlMs } };
  },
};
