/**
 * The node's conditions as kubelet's nodestatus setters compute them: MemoryPressure, DiskPressure,
 * PIDPressure (from the eviction manager) and Ready (from the runtime's health), in kubelet's order,
 * with its exact reasons and messages. lastHeartbeatTime is now at every computation;
 * lastTransitionTime moves only when a condition's status changes. Each change is also an event
 * (NodeReady, NodeNotReady, NodeHasSufficientMemory, ...), as kubelet records them.
 */

/** A core/v1 NodeCondition. */
export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** What the conditions are computed from. */
export interface NodeHealth {
  /** Runtime, network and other errors that make the node NotReady (kubelet's aggregate), in order. */
  readonly readyErrors: readonly string[];
  readonly memoryPressure: boolean;
  readonly diskPressure: boolean;
  readonly pidPressure: boolean;
}

interface PressureText {
  readonly type: string;
  readonly trueReason: string;
  readonly trueMessage: string;
  readonly falseReason: string;
  readonly falseMessage: string;
}

const pressureTexts: readonly PressureText[] = [
  { type: 'MemoryPressure', trueReason: 'KubeletHasInsufficientMemory', trueMessage: 'kubelet has insufficient memory available', falseReason: 'KubeletHasSufficientMemory', falseMessage: 'kubelet has sufficient memory available' },
  { type: 'DiskPressure', trueReason: 'KubeletHasDiskPressure', trueMessage: 'kubelet has disk pressure', falseReason: 'KubeletHasNoDiskPressure', falseMessage: 'kubelet has no disk pressure' },
  { type: 'PIDPressure', trueReason: 'KubeletHasInsufficientPID', trueMessage: 'kubelet has insufficient PID available', falseReason: 'KubeletHasSufficientPID', falseMessage: 'kubelet has sufficient PID available' },
];

/** The event reasons of a pressure condition, as kubelet records them (NodeHasSufficientMemory ...). */
function pressureEvent(type: string, pressure: boolean): string {
  switch (type) {
    case 'MemoryPressure':
      return pressure ? 'NodeHasInsufficientMemory' : 'NodeHasSufficientMemory';
    case 'DiskPressure':
      return pressure ? 'NodeHasDiskPressure' : 'NodeHasNoDiskPressure';
    default:
      return pressure ? 'NodeHasInsufficientPID' : 'NodeHasSufficientPID';
  }
}

/** k8s.io/apimachinery's utilerrors.NewAggregate(errs).Error(): one message, or "[a, b]". */
export function aggregateMessage(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
}

/**
 * The conditions after one status computation at now (RFC 3339), from the previous ones.
 * recordEvent is called with each transition's event reason. Never mutates previous.
 */
export function computeConditions(previous: readonly NodeCondition[] | undefined, health: NodeHealth, now: string, recordEvent: (reason: string) => void = () => undefined): NodeCondition[] {
  const prev = new Map((previous ?? []).map((c) => [c.type, c]));
  const out: NodeCondition[] = [];
  const pressures = { MemoryPressure: health.memoryPressure, DiskPressure: health.diskPressure, PIDPressure: health.pidPressure } as Record<string, boolean>;
  for (const t of pressureTexts) {
    const pressure = pressures[t.type] === true;
    const old = prev.get(t.type);
    const status = pressure ? 'True' : 'False';
    const changed = old?.status !== status;
    out.push({
      type: t.type,
      status,
      lastHeartbeatTime: now,
      lastTransitionTime: changed ? now : (old?.lastTransitionTime ?? now),
      reason: pressure ? t.trueReason : t.falseReason,
      message: pressure ? t.trueMessage : t.falseMessage,
    });
    if (changed) recordEvent(pressureEvent(t.type, pressure));
  }
  const ready = health.readyErrors.length === 0;
  const old = prev.get('Ready');
  const status = ready ? 'True' : 'False';
  const changed = old?.status !== status;
  out.push({
    type: 'Ready',
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: changed ? now : (old?.lastTransitionTime ?? now),
    reason: ready ? 'KubeletReady' : 'KubeletNotReady',
    message: ready ? 'kubelet is posting ready status' : aggregateMessage(health.readyErrors),
  });
  if (changed) recordEvent(ready ? 'NodeReady' : 'NodeNotReady');
  // Conditions other setters own (NetworkUnavailable from a network plugin) are kept as they are.
  for (const c of previous ?? []) if (!out.some((o) => o.type === c.type)) out.push({ ...c });
  return out;
}

/** True when two condition lists differ in anything but their heartbeat times (kubelet's nodeStatusHasChanged). */
export function conditionsChanged(a: readonly NodeCondition[] | undefined, b: readonly NodeCondition[] | undefined): boolean {
  const strip = (list: readonly NodeCondition[] | undefined) => JSON.stringify((list ?? []).map(({ lastHeartbeatTime: _h, ...rest }) => rest).sort((x, y) => x.type.localeCompare(y.type)));
  return strip(a) !== strip(b);
}
