/**
 * A small core/v1 event recorder for loops inside the API server (kube's record.EventRecorder):
 * each call writes one Warning or Normal Event about an object, named <object>.<hex time> in the
 * object's namespace ("default" for cluster-scoped objects). Never throws: a lost event is logged.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import { ResourceClient } from './resource-client.js';

/** Records events as one component. */
export class EventRecorder {
  private readonly events: ResourceClient | undefined;

  constructor(
    storage: RestStorage | undefined,
    private readonly component: string,
    private readonly log: Logger,
  ) {
    this.events = storage ? new ResourceClient(storage, '', 'events') : undefined;
  }

  /** Records an event about obj (kind and apiVersion given, as the object may come bare from storage). */
  async event(obj: KubeObject, ref: { kind: string; apiVersion: string }, type: 'Warning' | 'Normal', reason: string, message: string, action?: string): Promise<void> {
    if (!this.events) return;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const namespace = obj.metadata.namespace || 'default';
    const name = `${obj.metadata.name ?? ''}.${(BigInt(Date.now()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1e6))).toString(16)}`;
    try {
      await this.events.create({
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { name, namespace },
        involvedObject: {
          kind: ref.kind,
          apiVersion: ref.apiVersion,
          name: obj.metadata.name,
          ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
          ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
          ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
        },
        reason,
        message,
        type,
        source: { component: this.component },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        reportingComponent: this.component,
        reportingInstance: '',
        ...(action ? { action } : {}),
      } as KubeObject);
    } catch (err) {
      this.log.warn(`could not record event ${reason} for ${namespace}/${obj.metadata.name ?? ''}: ${(err as Error).message}`);
    }
  }
}
