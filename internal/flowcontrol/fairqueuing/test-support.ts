/** Helpers of the fair queuing tests: admit requests of a flow and hold them until released. */
import { KubeRegistry } from '../../observability/kube-registry.js';
import type { AdmitRequest, AdmitResult, PriorityLevelSpec, WorkEstimate } from '../interface.js';
import { createFlowDispatcher, type FlowDispatcherConfig } from './dispatcher.js';

/** A Limited level with queuing. */
export function queuingLevel(name: string, shares: number, queuing: { queues: number; handSize: number; queueLengthLimit: number }, lendablePercent = 0, borrowingLimitPercent?: number): PriorityLevelSpec {
  return { name, uid: `uid-${name}`, exempt: false, nominalConcurrencyShares: shares, lendablePercent, ...(borrowingLimitPercent === undefined ? {} : { borrowingLimitPercent }), queuing };
}

/** A request of flow (flowSchema, distinguisher) at level. */
export function request(level: string, flowSchema: string, distinguisher = '', work: Partial<WorkEstimate> = {}, signal = new AbortController().signal): AdmitRequest {
  return {
    classification: { flowSchemaName: flowSchema, flowSchemaUID: `uid-${flowSchema}`, priorityLevelName: level, priorityLevelUID: `uid-${level}`, flowDistinguisher: distinguisher, exempt: level === 'exempt' },
    work: { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0, ...work },
    signal,
    user: { name: distinguisher || 'someone', groups: ['system:authenticated'] },
    requestInfo: { isResourceRequest: true, path: '/api/v1/namespaces/default/pods', verb: 'list', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'default', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
    mutating: false,
  };
}

/** A dispatcher on a fresh registry. */
export function newDispatcher(serverConcurrencyLimit: number, levels: PriorityLevelSpec[], extra: Partial<FlowDispatcherConfig> = {}) {
  const registry = new KubeRegistry();
  const d = createFlowDispatcher({ serverConcurrencyLimit, queueWaitLimitMs: 10_000, registry, borrowingPeriodMs: 3_600_000, ...extra });
  d.setPriorityLevels(levels);
  return { d, registry };
}

/** The admitted result, or a failure. */
export function admitted(r: AdmitResult): { finish(): void } {
  if (!r.admitted) throw new Error(`rejected: ${r.reason}`);
  return r;
}

/** Resolves once pending microtasks and timers of 0 ms ran. */
export const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));
