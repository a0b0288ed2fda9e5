/**
 * The Dangling condition of FlowSchemas (kube's config consumer writes it): True with reason
 * NotFound while the named PriorityLevelConfiguration does not exist, False with reason Found once
 * it does. Written only when type, status, reason or message differ from what is there (the
 * lastTransitionTime is then now), through the status subresource under kube's field manager.
 * Writes are queued per FlowSchema and done one at a time; a failed write is retried later.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import { typeResolverForBuiltins, updateManagedFields, type TypeResolver } from '../../fieldmanager/managed-fields.js';
import type { KlogLogger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import type { FlowControlCondition, FlowSchemaObject } from './interface.js';

/** kube's field manager for the condition. */
export const configConsumerFieldManager = 'api-priority-and-fairness-config-consumer-v1';

/** The condition kube wants on a FlowSchema naming levelName. */
export function danglingCondition(levelName: string, dangling: boolean): Omit<FlowControlCondition, 'lastTransitionTime'> {
  return dangling
    ? { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object` }
    : { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists` };
}

/** Whether fs's status already carries want. */
export function hasCondition(fs: FlowSchemaObject, want: Omit<FlowControlCondition, 'lastTransitionTime'>): boolean {
  const c = fs.status?.conditions?.find((x) => x.type === want.type);
  return c !== undefined && c.status === want.status && c.reason === want.reason && c.message === want.message;
}

let resolver: TypeResolver | undefined;
const flowSchemaGVK = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema' };

/** metav1.Time: RFC 3339 in seconds. */
function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Writes Dangling conditions through the flowschemas/status storage. */
export class DanglingStatusWriter {
  private readonly pending = new Map<string, { levelName: string; dangling: boolean }>();
  private running = false;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly status: RestStorage,
    private readonly log: KlogLogger,
  ) {}

  /** Asks for name's condition to say whether levelName exists (the latest call wins). */
  enqueue(name: string, levelName: string, dangling: boolean): void {
    this.pending.set(name, { levelName, dangling });
    void this.drain();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    let failed = false;
    try {
      while (this.pending.size > 0 && !this.stopped) {
        const [name, want] = this.pending.entries().next().value as [string, { levelName: string; dangling: boolean }];
        this.pending.delete(name);
        try {
          await this.write(name, want.levelName, want.dangling);
        } catch (err) {
          if (hasReason(err, 'NotFound')) continue;
          this.log.v(2, `priority and fairness: writing the Dangling condition of FlowSchema ${name} failed: ${(err as Error).message}`);
          if (!this.pending.has(name)) this.pending.set(name, want);
          failed = true;
          break;
        }
      }
    } finally {
      this.running = false;
    }
    if (failed && !this.stopped) {
      this.retry = setTimeout(() => void this.drain(), 1000);
      this.retry.unref();
    }
  }

  private async write(name: string, levelName: string, dangling: boolean): Promise<void> {
    const want = danglingCondition(levelName, dangling);
    const update = this.status.update;
    if (!update) throw new Error('flowschemas/status cannot be updated');
    const ctx = internalContext({ verb: 'update', group: 'flowcontrol.apiserver.k8s.io', resource: 'flowschemas', subresource: 'status', name });
    await update.call(
      this.status,
      ctx,
      name,
      {
        updatedObject: async (_ctx, old) => {
          if (!old) throw new Error(`FlowSchema ${name} is gone`);
          const fs = structuredClone(old) as FlowSchemaObject & KubeObject;
          // The object moved on: only the level it names now counts (a later event enqueues it).
          if (fs.spec?.priorityLevelConfiguration?.name !== levelName || hasCondition(fs, want)) return fs;
          const others = (fs.status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
          fs.status = { ...(fs.status ?? {}), conditions: [...others, { ...want, lastTransitionTime: now() }] };
          // The write is recorded under kube's manager, as its server-side apply of the status would be.
          resolver ??= typeResolverForBuiltins();
          return updateManagedFields(resolver, flowSchemaGVK, old, fs, configConsumerFieldManager, 'status', new Date());
        },
      },
      { dryRun: false, fieldManager: configConsumerFieldManager },
    );
  }
}
