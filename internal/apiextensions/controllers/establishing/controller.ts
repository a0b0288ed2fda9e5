/**
 * kube's EstablishingController: a CRD whose names are accepted becomes Established
 * ("InitialNamesAccepted"), from then on served for good. kube's CRD handler queues the CRD when it
 * sees NamesAccepted True without Established, and when more than one API server runs
 * (--apiserver-count above 1, kube's MasterCount) only after 5 s, so every server has had time to
 * see the names before clients are told the resource is there.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { Established, isConditionTrue, NamesAccepted, setCondition } from '../conditions.js';
import type { CrdControllerDeps, RunningController } from '../interface.js';
import { runCrdQueue } from '../run-queue.js';

/** The wait before establishing when several API servers run (kube's fixed 5 s). */
export const multiServerEstablishDelayMs = 5000;

/** Options of the establishing controller. */
export interface EstablishingOptions {
  /** --apiserver-count: above 1, establishing waits multiServerEstablishDelayMs. */
  readonly apiserverCount: number;
}

const waiting = (crd: KubeObject): boolean => isConditionTrue(crd, NamesAccepted) && !isConditionTrue(crd, Established);

/** The CRD made Established, or undefined when it is not to be (yet). Mutates crd. */
export function establish(crd: KubeObject): KubeObject | undefined {
  if (!waiting(crd)) return undefined;
  setCondition(crd, { type: Established, status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  return crd;
}

/** Starts the establishing controller. */
export function startEstablishingController(deps: CrdControllerDeps, options: EstablishingOptions): RunningController {
  const delayMs = options.apiserverCount > 1 ? multiServerEstablishDelayMs : 0;
  const sync = async (name: string): Promise<void> => {
    const cached = deps.informer.get(name);
    if (!cached || !waiting(cached)) return;
    await deps.updateStatus(name, establish);
  };
  const queue = runCrdQueue('establishing-controller', deps, sync, {
    // kube queues on updates only (the CRD handler's update event); an add covers a restart
    // that finds a CRD left between the two conditions.
    added: (crd) => {
      if (waiting(crd)) queue.addAfter(crd.metadata.name ?? '', delayMs);
      return false;
    },
    updated: (crd) => {
      if (waiting(crd)) queue.addAfter(crd.metadata.name ?? '', delayMs);
      return false;
    },
  });
  return { stop: () => queue.stop() };
}
