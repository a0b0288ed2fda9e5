/**
 * The READY, STATUS and RESTARTS cells of a pod, by the rules of kube's printPod
 * (pkg/printers/internalversion, 1.33), which kubectl shows verbatim:
 *
 * - STATUS starts as status.reason or the phase; a PodScheduled condition gated by scheduling
 *   gates makes it SchedulingGated. Init containers are walked in order: one that exited 0, or a
 *   started restartable (sidecar) init container, is passed over; the first other one decides
 *   "Init:<reason>", "Init:Signal:n", "Init:ExitCode:n" or "Init:i/n", and the pod counts as
 *   initializing. When the pod is not initializing (or its Initialized condition is True), the
 *   app containers are walked from last to first and the first one's waiting or terminated
 *   reason wins (or "Signal:n"/"ExitCode:n"); "Completed" with a container still running reads
 *   "Running" (pod Ready) or "NotReady". A pod being deleted reads "Terminating", or "Unknown"
 *   when its node was lost, unless its phase is already terminal.
 * - READY counts ready running app containers plus ready started sidecars, over the app
 *   containers plus the restartable init containers.
 * - RESTARTS sums restart counts (of all init containers while initializing, else of sidecars and
 *   app containers) and appends "(<age> ago)" of the latest last-termination among them.
 */
import { humanDuration, parseTimestamp } from './ages.js';
import { type Json, intAt, objectAt, objectsAt, stringAt } from './json-fields.js';

/** The three status cells of a pod row. */
export interface PodStatusCells {
  /** "ready/total". */
  readonly ready: string;
  /** The aggregate status (Running, Init:0/1, CrashLoopBackOff, Terminating, ...). */
  readonly status: string;
  /** The restart count, with "(<age> ago)" of the last restart when there was one. */
  readonly restarts: string;
}

/** A latest-time tracker that, like Go's zero time, starts before every real time. */
class Latest {
  at: number | undefined;
  /** Keeps t when it is later than what is held (a missing t is the zero time and never is). */
  offer(t: number | undefined): void {
    if (t !== undefined && (this.at === undefined || this.at < t)) this.at = t;
  }
}

function isRestartable(container: Json | undefined): boolean {
  return stringAt(container, 'restartPolicy') === 'Always';
}

/** When the container last terminated (lastState.terminated.finishedAt), if it did. */
function lastTerminated(cs: Json): number | undefined | null {
  const terminated = objectAt(objectAt(cs, 'lastState'), 'terminated');
  // A last termination without finishedAt is Go's zero time: present, but never the latest.
  return terminated ? parseTimestamp(terminated.finishedAt) : null;
}

function offerLastTermination(latest: Latest, cs: Json): void {
  const t = lastTerminated(cs);
  if (t !== null) latest.offer(t);
}

/** The first condition of type, as kube's loops that stop at the first match see it. */
function firstCondition(conditions: Json[], type: string): Json | undefined {
  return conditions.find((c) => stringAt(c, 'type') === type);
}

function terminatedText(terminated: Json, prefix: string): string {
  const reason = stringAt(terminated, 'reason');
  if (reason !== '') return prefix + reason;
  const signal = intAt(terminated, 'signal');
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${intAt(terminated, 'exitCode')}`;
}

/** Computes READY, STATUS and RESTARTS of a v1 Pod at now. Pure. */
export function podStatusCells(pod: Json, now: Date): PodStatusCells {
  const metadata = objectAt(pod, 'metadata');
  const spec = objectAt(pod, 'spec');
  const status = objectAt(pod, 'status');
  const conditions = objectsAt(status, 'conditions');
  const initContainers = objectsAt(spec, 'initContainers');

  let total = objectsAt(spec, 'containers').length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  const lastRestart = new Latest();
  const lastSidecarRestart = new Latest();

  const phase = stringAt(status, 'phase');
  let reason = stringAt(status, 'reason') || phase;
  for (const c of conditions) {
    if (stringAt(c, 'type') === 'PodScheduled' && stringAt(c, 'reason') === 'SchedulingGated') reason = 'SchedulingGated';
  }

  // Later init containers of the same name replace earlier ones, as in kube's map.
  const initByName = new Map<string, Json>();
  for (const c of initContainers) {
    initByName.set(stringAt(c, 'name'), c);
    if (isRestartable(c)) total++;
  }

  let initializing = false;
  const initStatuses = objectsAt(status, 'initContainerStatuses');
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i] as Json;
    const restartable = isRestartable(initByName.get(stringAt(cs, 'name')));
    restarts += intAt(cs, 'restartCount');
    offerLastTermination(lastRestart, cs);
    if (restartable) {
      sidecarRestarts += intAt(cs, 'restartCount');
      offerLastTermination(lastSidecarRestart, cs);
    }
    const state = objectAt(cs, 'state');
    const terminated = objectAt(state, 'terminated');
    const waiting = objectAt(state, 'waiting');
    if (terminated && intAt(terminated, 'exitCode') === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedText(terminated, 'Init:');
    else if (waiting && stringAt(waiting, 'reason') !== '' && stringAt(waiting, 'reason') !== 'PodInitializing') {
      reason = `Init:${stringAt(waiting, 'reason')}`;
    } else reason = `Init:${i}/${initContainers.length}`;
    initializing = true;
    break;
  }

  if (!initializing || stringAt(firstCondition(conditions, 'Initialized'), 'status') === 'True') {
    restarts = sidecarRestarts;
    lastRestart.at = lastSidecarRestart.at;
    let hasRunning = false;
    const statuses = objectsAt(status, 'containerStatuses');
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i] as Json;
      restarts += intAt(cs, 'restartCount');
      offerLastTermination(lastRestart, cs);
      const state = objectAt(cs, 'state');
      const terminated = objectAt(state, 'terminated');
      const waiting = objectAt(state, 'waiting');
      if (waiting && stringAt(waiting, 'reason') !== '') reason = stringAt(waiting, 'reason');
      else if (terminated) reason = terminatedText(terminated, '');
      else if (cs.ready === true && objectAt(state, 'running')) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = conditions.some((c) => stringAt(c, 'type') === 'Ready' && stringAt(c, 'status') === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }

  const deleting = metadata?.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null;
  if (deleting && stringAt(status, 'reason') === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart.at !== undefined) {
    restartsText = `${restarts} (${humanDuration(now.getTime() - lastRestart.at)} ago)`;
  }
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}
