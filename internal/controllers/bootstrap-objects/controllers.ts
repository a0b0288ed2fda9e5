/**
 * The bootstrap objects as in-server controllers: kube-apiserver's post-start hooks that create
 * the system PriorityClasses and keep the APF configuration. Each tries every second until it
 * succeeds once (readyz's poststarthook check then passes); the APF ensurer then runs again every
 * minute, as kube's does.
 */
import type { InServerController, InServerControllerDeps } from '../../server/in-server-controllers.js';
import { ResourceClient } from '../resource-client.js';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from './flowcontrol-defaults.js';
import { ensureKind } from './flowcontrol-ensurer.js';
import { ensureSystemPriorityClasses } from './priority-classes.js';

const flowcontrol = 'flowcontrol.apiserver.k8s.io';

/**
 * Runs pass every retryMs until it succeeds, then (when everyMs is given) every everyMs until
 * stopped; failures are logged. Returns the stop.
 */
export function runUntilStopped(
  name: string,
  deps: Pick<InServerControllerDeps, 'log' | 'shutdown' | 'hookDone'>,
  pass: () => Promise<void>,
  retryMs: number,
  everyMs?: number,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (ms: number): void => {
    if (stopped || deps.shutdown.aborted) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };
  const run = async (): Promise<void> => {
    try {
      await pass();
      deps.hookDone();
      if (everyMs !== undefined) schedule(everyMs);
    } catch (err) {
      if (stopped || deps.shutdown.aborted) return;
      deps.log.warn(`${name}: ${(err as Error).message}; will retry`);
      schedule(retryMs);
    }
  };
  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function clientOf(deps: InServerControllerDeps, group: string, resource: string): ResourceClient {
  const storage = deps.storageOf(group, resource);
  if (!storage) throw new Error(`${resource}.${group} is not served`);
  return new ResourceClient(storage, group, resource);
}

/** scheduling/bootstrap-system-priority-classes. */
export const systemPriorityClassesController: InServerController = {
  name: 'bootstrap-system-priority-classes',
  postStartHook: 'scheduling/bootstrap-system-priority-classes',
  start(deps) {
    const client = clientOf(deps, 'scheduling.k8s.io', 'priorityclasses');
    return runUntilStopped(this.name, deps, () => ensureSystemPriorityClasses(client, (m) => deps.log.v(1, m)), 1000);
  },
};

/** The APF bootstrap configuration (kube's priority-and-fairness-config-producer). */
export const apfBootstrapController: InServerController = {
  name: 'apf-bootstrap-configuration',
  postStartHook: 'priority-and-fairness-config-producer',
  start(deps) {
    const levels = deps.informers.get(flowcontrol, 'prioritylevelconfigurations');
    const schemas = deps.informers.get(flowcontrol, 'flowschemas');
    const levelClient = clientOf(deps, flowcontrol, 'prioritylevelconfigurations');
    const schemaClient = clientOf(deps, flowcontrol, 'flowschemas');
    const log = (m: string): void => deps.log.v(1, m);
    return runUntilStopped(
      this.name,
      deps,
      async () => {
        await Promise.all([levels.synced, schemas.synced]);
        // Levels first: the schemas name them.
        await ensureKind({ existing: () => levels.list(), client: levelClient, mandatory: mandatoryPriorityLevels, suggested: suggestedPriorityLevels }, log);
        await ensureKind({ existing: () => schemas.list(), client: schemaClient, mandatory: mandatoryFlowSchemas, suggested: suggestedFlowSchemas }, log);
      },
      1000,
      60_000,
    );
  },
};
