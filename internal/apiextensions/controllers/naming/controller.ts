/**
 * kube's NamingConditionController: gives each CRD the names it asked for unless another CRD of
 * its group holds them (status.acceptedNames, NamesAccepted, and Established False "Installing"
 * until the establishing controller takes over). After each write the other CRDs of the group are
 * looked at again, as is the whole group when a CRD is gone and frees its names.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { conditionEquivalent, findCondition, NamesAccepted, setCondition } from '../conditions.js';
import type { CrdControllerDeps, RunningController } from '../interface.js';
import { runCrdQueue } from '../run-queue.js';
import { addAcceptedNames, calculateNames, readNames, sameNames, type UsedNames } from './names.js';

/** How long a write of ours stands in for the informer's copy at most (kube's mutation cache TTL). */
const mutationTtlMs = 60_000;

const groupOf = (crd: KubeObject): string => String((crd.spec as Record<string, unknown> | undefined)?.group ?? '');
const specNames = (crd: KubeObject) => readNames((crd.spec as Record<string, unknown> | undefined)?.names);
const acceptedNames = (crd: KubeObject) => readNames((crd.status as Record<string, unknown> | undefined)?.acceptedNames);

/** Starts the naming controller. */
export function startNamingController(deps: CrdControllerDeps): RunningController {
  // Our own recent writes, until the informer has delivered them (kube's crdMutationCache):
  // without them a second CRD queued right after the first could take the names just given.
  const written = new Map<string, { crd: KubeObject; at: number }>();

  const current = (crd: KubeObject): KubeObject => {
    const mine = written.get(crd.metadata.name ?? '');
    if (!mine || Date.now() - mine.at > mutationTtlMs) return crd;
    return mine.crd;
  };

  const usedNames = (group: string): UsedNames => {
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const crd of deps.informer.list()) {
      if (groupOf(crd) !== group) continue;
      addAcceptedNames(acceptedNames(current(crd)), resources, kinds);
    }
    return { resources, kinds };
  };

  const requeueGroup = (name: string, group: string): void => {
    for (const crd of deps.informer.list()) if (groupOf(crd) === group && crd.metadata.name !== name) queue.add(crd.metadata.name ?? '');
  };

  /** The CRD with the names it can have, or undefined when nothing changes. Mutates crd. */
  const decide = (crd: KubeObject): KubeObject | undefined => {
    if (sameNames(specNames(crd), acceptedNames(crd))) return undefined;
    const result = calculateNames(crd, usedNames(groupOf(crd)));
    if (sameNames(acceptedNames(crd), result.acceptedNames) && conditionEquivalent({ ...result.namesAccepted }, findCondition(crd, NamesAccepted))) {
      return undefined;
    }
    const status = (crd.status ??= {}) as Record<string, unknown>;
    status.acceptedNames = result.acceptedNames;
    setCondition(crd, result.namesAccepted);
    setCondition(crd, result.established);
    return crd;
  };

  const sync = async (name: string): Promise<void> => {
    const cached = deps.informer.get(name);
    if (!cached) {
      // Gone, and its names with it: the rest of its group may now have them (name is plural.group).
      const dot = name.indexOf('.');
      if (dot >= 0) requeueGroup(name, name.slice(dot + 1));
      return;
    }
    if (!decide(structuredClone(current(cached)))) return;
    const result = await deps.updateStatus(name, decide);
    if (!result?.wrote) return;
    const stored = result.object;
    written.set(name, { crd: stored, at: Date.now() });
    // We may have released a name another CRD of the group is waiting for.
    requeueGroup(name, groupOf(stored));
  };

  const queue = runCrdQueue('naming-condition-controller', deps, sync, {
    added: () => true,
    updated: (crd) => {
      const mine = written.get(crd.metadata.name ?? '');
      if (mine && mine.crd.metadata.resourceVersion === crd.metadata.resourceVersion) written.delete(crd.metadata.name ?? '');
      return true;
    },
    deleted: (crd) => {
      written.delete(crd.metadata.name ?? '');
      return true;
    },
  });
  return { stop: () => queue.stop() };
}
