/**
 * The quota admission evaluator (kube's resourcequota quotaEvaluator): requests are queued by
 * namespace and a namespace's waiting requests are checked together against its quotas, so one
 * status write charges them all and two requests of one namespace are never charged at the same
 * time. Each changed quota is written with a compare-and-swap on its resourceVersion; when one loses,
 * the lost quotas are read again and the batch rechecked, up to three times. A request is refused
 * unless its quotas were written (default deny). Dry-run requests are checked but never charged.
 */
import { newInternalError } from '../../../apierrors/factories.js';
import { isIgnoredResource, type EvaluatorRegistry } from '../../../quota/registry.js';
import { equals, resourceListFromJSON, resourceListToJSON } from '../../../quota/resource-list.js';
import type { QuotaObject } from '../../../quota/interface.js';
import type { AdmissionAttributes } from '../../interface.js';
import { checkRequest } from './check-request.js';
import type { ResourceQuotaConfiguration, WorkingQuota } from './interface.js';
import type { QuotaAccessor } from './quota-accessor.js';

const defaultDeny = new Error('DEFAULT DENY');

interface Waiter {
  readonly attrs: AdmissionAttributes;
  result: Error | undefined;
}

interface Batch {
  readonly waiters: Waiter[];
  readonly done: Promise<void>;
  resolve(): void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return { waiters: [], done, resolve };
}

function working(q: QuotaObject): WorkingQuota {
  return { object: q, hard: resourceListFromJSON(q.status?.hard), used: resourceListFromJSON(q.status?.used) };
}

/** Queues, batches and checks quota admission per namespace. */
export class QuotaAdmissionEvaluator {
  private readonly pending = new Map<string, Batch>();
  private readonly inProgress = new Set<string>();
  private readonly queue: string[] = [];
  private active = 0;

  constructor(
    private readonly accessor: QuotaAccessor,
    private readonly registry: EvaluatorRegistry,
    private readonly config: ResourceQuotaConfiguration,
    private readonly workers = 5,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Resolves when attrs fits its namespace's quotas (and was charged); throws the refusal otherwise. */
  async evaluate(attrs: AdmissionAttributes): Promise<void> {
    if (isIgnoredResource(attrs.group, attrs.resource)) return;
    const evaluator = this.registry.getOrCreate(attrs.group, attrs.resource);
    if (!evaluator.handles(attrs)) return;
    if (this.config.limitedResources.length === 0 && this.accessor.knownEmpty(attrs.namespace)) return;

    const waiter: Waiter = { attrs, result: defaultDeny };
    const batch = this.addWork(waiter);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      batch.done.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) throw newInternalError('resource quota evaluation timed out');
    if (waiter.result) throw waiter.result;
  }

  private addWork(waiter: Waiter): Batch {
    const ns = waiter.attrs.namespace;
    let batch = this.pending.get(ns);
    if (!batch) {
      this.pending.set(ns, (batch = newBatch()));
      if (!this.inProgress.has(ns)) this.queue.push(ns);
    }
    batch.waiters.push(waiter);
    this.pump();
    return batch;
  }

  private pump(): void {
    while (this.active < this.workers && this.queue.length > 0) {
      const ns = this.queue.shift() as string;
      const batch = this.pending.get(ns);
      this.pending.delete(ns);
      if (!batch) continue;
      this.active++;
      this.inProgress.add(ns);
      void this.checkAttributes(ns, batch.waiters).finally(() => {
        batch.resolve();
        this.active--;
        this.inProgress.delete(ns);
        // Requests that came while this namespace was busy form its next batch.
        if (this.pending.has(ns)) this.queue.push(ns);
        this.pump();
      });
    }
  }

  private async checkAttributes(ns: string, waiters: Waiter[]): Promise<void> {
    let quotas: QuotaObject[];
    try {
      quotas = await this.accessor.getQuotas(ns);
    } catch (err) {
      for (const w of waiters) w.result = err as Error;
      return;
    }
    if (quotas.length === 0 && this.config.limitedResources.length === 0) {
      for (const w of waiters) w.result = undefined;
      return;
    }
    try {
      await this.checkQuotas(ns, quotas.map(working), waiters, 3);
    } catch (err) {
      for (const w of waiters) if (w.result === defaultDeny) w.result = err as Error;
    }
  }

  private async checkQuotas(ns: string, start: readonly WorkingQuota[], waiters: Waiter[], retries: number): Promise<void> {
    let quotas = start;
    let changed = false;
    for (const w of waiters) {
      let next: readonly WorkingQuota[];
      try {
        next = checkRequest(quotas, w.attrs, this.registry.getOrCreate(w.attrs.group, w.attrs.resource), this.config.limitedResources);
      } catch (err) {
        w.result = err as Error;
        continue;
      }
      if (w.attrs.dryRun) {
        w.result = undefined;
        continue;
      }
      let mine = false;
      for (let j = 0; j < next.length; j++) {
        if (!equals(quotas[j]?.used, next[j]?.used)) {
          changed = mine = true;
          break;
        }
      }
      if (!mine) w.result = undefined;
      quotas = next;
    }
    if (!changed) return;

    const failed: string[] = [];
    let lastErr: Error | undefined;
    for (let i = 0; i < quotas.length; i++) {
      const q = quotas[i] as WorkingQuota;
      if (equals(start[i]?.used, q.used)) continue;
      const next: QuotaObject = { ...q.object, status: { ...q.object.status, used: resourceListToJSON(q.used) } };
      try {
        await this.accessor.updateQuotaStatus(next);
      } catch (err) {
        failed.push(q.object.metadata.name ?? '');
        lastErr = err as Error;
      }
    }
    if (failed.length === 0) {
      for (const w of waiters) if (w.result === defaultDeny) w.result = undefined;
      return;
    }
    if (retries <= 0) {
      for (const w of waiters) if (w.result === defaultDeny) w.result = lastErr;
      return;
    }
    // Our informer may not show the write that beat us yet: read the lost quotas from storage.
    let fresh: QuotaObject[];
    try {
      fresh = await this.accessor.getQuotasLive(ns);
    } catch {
      for (const w of waiters) if (w.result === defaultDeny) w.result = lastErr;
      return;
    }
    const again = fresh.filter((q) => failed.includes(q.metadata.name ?? '')).map(working);
    await this.checkQuotas(ns, again, waiters, retries - 1);
  }
}
