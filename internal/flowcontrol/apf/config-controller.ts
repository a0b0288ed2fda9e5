/**
 * The configuration controller (kube's apf_controller, the "config consumer"): follows the
 * FlowSchemas and PriorityLevelConfigurations through shared informers, digests them on every
 * change (coalesced: one digest per turn of the event loop, however many events arrived), installs
 * the levels in the dispatcher, swaps in the compiled FlowSchemas classification reads, and queues
 * the Dangling condition writes. Until its informers have synced it classifies by the mandatory
 * configuration alone.
 */
import type { Informer } from '../../controllers/informer.js';
import type { UserInfo } from '../../request/context.js';
import type { RequestInfo } from '../../request/request-info.js';
import type { Classification, FlowDispatcher } from '../interface.js';
import { classify, type CompiledFlowSchema } from './classify.js';
import { hasCondition, danglingCondition, type DanglingStatusWriter } from './dangling-status.js';
import { digest } from './digest.js';
import type { FlowSchemaObject, PriorityLevelObject } from './interface.js';

/** What the controller follows once started. */
export interface ConfigSources {
  readonly flowSchemas: Informer;
  readonly priorityLevels: Informer;
  /** Absent: conditions are not written (the status subresource is not served). */
  readonly status?: DanglingStatusWriter;
}

/** Digests the configuration and classifies requests by it. */
export class ConfigController {
  private schemas: readonly CompiledFlowSchema[];
  private fallback: Classification;
  private sources: ConfigSources | undefined;
  private scheduled = false;
  private stopped = false;
  private isSynced = false;

  /** Installs the mandatory configuration in dispatcher: in force until follow()'s informers sync. */
  constructor(private readonly dispatcher: FlowDispatcher) {
    const d = digest([], []);
    dispatcher.setPriorityLevels(d.levels);
    this.schemas = d.schemas;
    this.fallback = this.catchAll();
  }

  /** Starts following the stored configuration; resolves once the first digest of it is in force. */
  follow(sources: ConfigSources): Promise<void> {
    this.sources = sources;
    const changed = (): void => this.schedule();
    return Promise.all([sources.flowSchemas.synced, sources.priorityLevels.synced]).then(() => {
      if (this.stopped) return;
      this.isSynced = true;
      this.recompute();
      sources.flowSchemas.addHandlers({ added: changed, updated: changed, deleted: changed });
      sources.priorityLevels.addHandlers({ added: changed, updated: changed, deleted: changed });
    });
  }

  /** Whether the first digest of the stored configuration is in force. */
  hasSynced(): boolean {
    return this.isSynced;
  }

  /** The request's flow: its FlowSchema's, or the catch-all's when none matches (as kube falls back). */
  classify(user: UserInfo, ri: RequestInfo): Classification {
    return classify(this.schemas, user, ri) ?? this.fallback;
  }

  stop(): void {
    this.stopped = true;
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.recompute();
    });
  }

  private catchAll(): Classification {
    const probe: UserInfo = { name: '', groups: ['system:unauthenticated', 'system:authenticated'] };
    const ri: RequestInfo = { isResourceRequest: false, path: '/', verb: 'get', apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] };
    const fs = this.schemas.find((s) => s.name === 'catch-all');
    return (fs ?? (this.schemas[this.schemas.length - 1] as CompiledFlowSchema)).classify(probe, ri);
  }

  private recompute(): void {
    const sources = this.sources;
    if (!sources) return;
    const flowSchemas = [...sources.flowSchemas.list()] as FlowSchemaObject[];
    const d = digest(flowSchemas, sources.priorityLevels.list() as Iterable<PriorityLevelObject>);
    this.dispatcher.setPriorityLevels(d.levels);
    this.schemas = d.schemas;
    this.fallback = this.catchAll();
    const status = sources.status;
    if (!status) return;
    for (const fs of flowSchemas) {
      const ref = d.references.get(fs.metadata.name ?? '');
      if (ref && !hasCondition(fs, danglingCondition(ref.levelName, ref.dangling))) status.enqueue(fs.metadata.name ?? '', ref.levelName, ref.dangling);
    }
  }
}
