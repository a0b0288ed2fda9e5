/**
 * EventRateLimit (kube's admission plugin of that name, off by default): creates and updates of
 * core/v1 Events are limited by token buckets per the configured limit types: one for the whole
 * server, or one per namespace, per user, or per event source and involved object, those kept in an
 * LRU cache of cacheSize. Every limit is asked (each takes its token); a refusal is 429
 * "Too many requests: limit reached on type <type> for key <key>".
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { EventLimit } from './config.js';
import { TokenBucket } from './token-bucket.js';

interface EventLike extends KubeObject {
  source?: { component?: string; host?: string };
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string };
}

function keyOf(type: EventLimit['type'], attrs: AdmissionAttributes): string {
  switch (type) {
    case 'Server':
      return '';
    case 'Namespace':
      return attrs.namespace;
    case 'User':
      return attrs.userInfo?.name ?? '';
    case 'SourceAndObject': {
      const e = attrs.object as EventLike | undefined;
      if (!e) return '';
      const o = e.involvedObject ?? {};
      return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion].map((s) => s ?? '').join('');
    }
  }
}

/** One limit's buckets: a single one for Server, else an LRU of them by key. */
class LimitEnforcer {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly single: TokenBucket | undefined;

  constructor(
    private readonly limit: EventLimit,
    private readonly now: () => number,
  ) {
    if (limit.type === 'Server') this.single = new TokenBucket(limit.qps, limit.burst, now);
  }

  private bucket(key: string): TokenBucket {
    if (this.single) return this.single;
    let b = this.buckets.get(key);
    if (b) {
      this.buckets.delete(key);
    } else {
      b = new TokenBucket(this.limit.qps, this.limit.burst, this.now);
      if (this.buckets.size >= this.limit.cacheSize) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    this.buckets.set(key, b);
    return b;
  }

  /** The refusal, or undefined when a token was taken. */
  accept(attrs: AdmissionAttributes): StatusError | undefined {
    const key = keyOf(this.limit.type, attrs);
    if (this.bucket(key).tryAccept()) return undefined;
    return new StatusError(429, 'TooManyRequests', `Too many requests: limit reached on type ${this.limit.type} for key ${key}`);
  }
}

/** The EventRateLimit plugin. */
export class EventRateLimitPlugin implements AdmissionPlugin {
  readonly name = 'EventRateLimit';
  private readonly enforcers: LimitEnforcer[];

  constructor(limits: readonly EventLimit[], now: () => number = Date.now) {
    this.enforcers = limits.map((l) => new LimitEnforcer(l, now));
  }

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.kind !== 'Event' || attrs.group !== '') return;
    let refusal: StatusError | undefined;
    for (const e of this.enforcers) refusal = e.accept(attrs) ?? refusal;
    if (refusal) throw refusal;
  }
}
