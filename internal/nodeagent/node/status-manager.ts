/**
 * Registration and status updates of one Node, as kubelet's registerWithAPIServer and
 * syncNodeStatus do them. Registration creates the Node (retried with back-off from 100 ms to 7 s);
 * when it exists already, its default labels and controller-managed-attach-detach annotation are
 * reconciled. Each update (every --node-status-update-frequency) computes the status and PATCHes
 * nodes/<name>/status with a two-way strategic merge patch only when something other than the
 * heartbeat times changed or --node-status-report-frequency passed since the last report.
 * With --register-node=false the Node is never created, but its status is still kept once it exists.
 */
import { ApiError, type ApiClient } from '../client/api-client.js';
import { createTwoWayMergePatch, patchSchemaFor } from '../../endpoints/patch/strategic/index.js';
import type { Logger } from '../../observability/logging.js';
import type { EventRecorder, NodeAgentConfig } from '../interface.js';
import { computeConditions, conditionsChanged, type NodeCondition, type NodeHealth } from './conditions.js';
import type { FsInfo, MachineInfo } from './machine-info.js';
import { initialNode, nodeStatus, reconcileExistingNode, type NodeImage, type StatusInputs } from './node-object.js';
import { rfc3339, sleep } from './time.js';

/** kubelet's nodeStatusUpdateRetry. */
const statusUpdateRetries = 5;
const nodeSchema = patchSchemaFor({ group: '', version: 'v1', kind: 'Node' });

/** Where the status's changing parts come from. */
export interface NodeStatusSources {
  readonly machine: MachineInfo;
  readonly hostname: string;
  readonly internalIPs: readonly string[];
  readonly kubeletVersion: string;
  rootFs(): Promise<FsInfo>;
  containerRuntimeVersion(): Promise<string>;
  images(): Promise<NodeImage[]>;
  health(): NodeHealth;
}

/** What the manager talks through. */
export interface NodeStatusDeps {
  readonly client: ApiClient;
  readonly config: NodeAgentConfig;
  readonly nodeName: string;
  readonly log: Logger;
  readonly events?: EventRecorder;
  /** Read the Node before each update (kubelet reads it from the watch cache); simulated nodes keep their own copy. */
  readonly readBeforeUpdate?: boolean;
  readonly now?: () => number;
}

/** Registers and updates one Node's status. */
export class NodeStatusManager {
  /** The Node as last read or written. */
  node: Record<string, any> | undefined;
  registered = false;
  private lastReportMs = 0;
  private readonly now: () => number;

  constructor(private readonly deps: NodeStatusDeps, private readonly sources: NodeStatusSources) {
    this.now = deps.now ?? Date.now;
  }

  private path(sub = ''): string {
    return `/api/v1/nodes/${encodeURIComponent(this.deps.nodeName)}${sub}`;
  }

  private nodeRef() {
    return { apiVersion: 'v1', kind: 'Node', metadata: { name: this.deps.nodeName, uid: this.deps.nodeName } };
  }

  private async inputs(previous: readonly NodeCondition[] | undefined, now: number, record: boolean): Promise<StatusInputs> {
    const [rootFs, containerRuntimeVersion, images] = await Promise.all([this.sources.rootFs(), this.sources.containerRuntimeVersion(), this.sources.images()]);
    const recordEvent = (reason: string) => {
      if (record) this.deps.events?.event(this.nodeRef(), 'Normal', reason, `Node ${this.deps.nodeName} status is now: ${reason}`);
    };
    return {
      config: this.deps.config,
      nodeName: this.deps.nodeName,
      hostname: this.sources.hostname,
      machine: this.sources.machine,
      rootFs,
      internalIPs: this.sources.internalIPs,
      containerRuntimeVersion,
      kubeletVersion: this.sources.kubeletVersion,
      images,
      conditions: computeConditions(previous, this.sources.health(), rfc3339(now), recordEvent),
    };
  }

  /** One registration attempt (kubelet's tryRegisterWithAPIServer): true once the Node exists. */
  async tryRegister(): Promise<boolean> {
    const node = initialNode(await this.inputs(undefined, this.now(), true));
    try {
      this.node = await this.deps.client.create('/api/v1/nodes', node);
      this.lastReportMs = this.now();
      this.deps.log.info('Successfully registered node', { node: this.deps.nodeName });
      return true;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409 && err.reason === 'AlreadyExists')) {
        this.deps.log.error('Unable to register node with API server', { node: this.deps.nodeName, err: (err as Error).message });
        return false;
      }
    }
    const existing = await this.deps.client.get<Record<string, any>>(this.path()).catch(() => undefined);
    if (!existing) return false;
    const { node: reconciled, changed } = reconcileExistingNode(existing, node);
    this.node = existing;
    if (changed) {
      try {
        this.node = await this.patchStatus(existing, reconciled);
      } catch (err) {
        this.deps.log.error('Unable to reconcile node with API server', { node: this.deps.nodeName, err: (err as Error).message });
        return false;
      }
    }
    return true;
  }

  /** Registers (when --register-node), retrying with back-off until it succeeds or signal aborts. */
  async register(signal: AbortSignal): Promise<void> {
    let delay = 100;
    while (!signal.aborted && !this.registered) {
      if (await this.tryRegister().catch(() => false)) {
        this.registered = true;
        return;
      }
      await sleep(delay, signal);
      delay = Math.min(7_000, delay * 2);
    }
  }

  private async patchStatus(original: Record<string, any>, modified: Record<string, any>): Promise<Record<string, any>> {
    const patch = createTwoWayMergePatch({ metadata: original.metadata, status: original.status }, { metadata: modified.metadata, status: modified.status }, nodeSchema!);
    return this.deps.client.patch<Record<string, any>>(this.path('/status'), 'strategic', patch);
  }

  /**
   * One status update (kubelet's updateNodeStatus, up to 5 tries): 'patched' when a PATCH was sent,
   * 'unchanged' when nothing changed and the report frequency has not passed, 'missing' when the
   * Node does not exist (not registered yet, or --register-node=false and nobody created it).
   */
  async update(): Promise<'patched' | 'unchanged' | 'missing'> {
    let last: unknown;
    for (let i = 0; i < statusUpdateRetries; i++) {
      try {
        return await this.tryUpdate(i === 0);
      } catch (err) {
        last = err;
        if (err instanceof ApiError && err.code === 404) return 'missing';
      }
    }
    throw last;
  }

  private async tryUpdate(first: boolean): Promise<'patched' | 'unchanged' | 'missing'> {
    const readNow = this.deps.readBeforeUpdate !== false || !this.node || !first;
    const original = readNow ? await this.deps.client.get<Record<string, any>>(this.path(), first ? { query: { resourceVersion: '0' } } : {}) : this.node!;
    const now = this.now();
    const status = nodeStatus(await this.inputs(original.status?.conditions, now, true));
    const modified = { ...original, status: { ...original.status, ...status } };
    const changed = conditionsChanged(original.status?.conditions, status.conditions as NodeCondition[]) || canonicalJson({ ...original.status, conditions: [] }) !== canonicalJson({ ...modified.status, conditions: [] });
    if (!changed && now - this.lastReportMs < this.deps.config.nodeStatusReportFrequencyMs) {
      this.node = original;
      return 'unchanged';
    }
    this.node = await this.patchStatus(original, modified);
    this.lastReportMs = now;
    return 'patched';
  }

  /** Registers when configured to, then updates every --node-status-update-frequency until signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.deps.config.registerNode) await this.register(signal);
    while (!signal.aborted) {
      try {
        await this.update();
      } catch (err) {
        this.deps.log.error('Unable to update node status', { node: this.deps.nodeName, err: (err as Error).message });
      }
      await sleep(this.deps.config.nodeStatusUpdateFrequencyMs, signal);
    }
  }
}

/** True for what Go's omitempty leaves out of JSON: null, an empty list or an empty object. */
function omitted(x: unknown): boolean {
  return x === undefined || x === null || (Array.isArray(x) && x.length === 0) || (typeof x === 'object' && !Array.isArray(x) && Object.keys(x as object).length === 0);
}

/**
 * JSON with object keys sorted and omitempty's empties left out, so two documents compare by
 * content whatever their key order and whether the server wrote an empty field back.
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => !omitted(x)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
