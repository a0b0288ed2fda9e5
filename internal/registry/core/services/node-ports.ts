/**
 * A Service's node ports as kube's allocator handles them (alloc.go initNodePorts,
 * updateNodePorts, updateHealthCheckNodePort, releaseAllocatedResources) on top of a port
 * operation (portallocator/operation.go): ports taken now, ports freed only once the Service
 * change is stored, everything taken undone when it is not.
 */
import { newInternalError, newInvalid } from '../../../apierrors/factories.js';
import { fieldErrorCause, invalid } from '../../../validation/field-error.js';
import { arrayAt, asObject, stringAt, type JsonObject } from '../shared/json-value.js';
import { PortAllocationError, type NodePortAllocator } from './node-port-allocator.js';

/** kube's PortAllocationOperation: allocations now, releases deferred to commit. */
export class PortOperation {
  private readonly allocated: number[] = [];
  private readonly deferred: number[] = [];

  constructor(
    private readonly alloc: NodePortAllocator,
    private readonly dryRun: boolean,
  ) {}

  /** Takes port (a dry run only checks it is not taken, as kube's does). */
  async allocate(port: number): Promise<void> {
    if (this.dryRun) {
      if (this.allocated.includes(port) || (await this.alloc.has(port))) throw new PortAllocationError('allocated', 'provided port is already allocated');
      this.allocated.push(port);
      return;
    }
    await this.alloc.allocate(port);
    this.allocated.push(port);
  }

  /** Takes a free port; a dry run makes one up past the range (32769, 32770, ...) as kube's does. */
  async allocateNext(): Promise<number> {
    if (this.dryRun) {
      const port = (this.allocated.length === 0 ? 32768 : Math.max(...this.allocated)) + 1;
      this.allocated.push(port);
      return port;
    }
    const port = await this.alloc.allocateNext();
    this.allocated.push(port);
    return port;
  }

  /** Frees port once the change is committed. */
  releaseDeferred(port: number): void {
    this.deferred.push(port);
  }

  /** The change was stored: free the deferred ports. */
  async commit(): Promise<void> {
    if (!this.dryRun && this.deferred.length > 0) await this.alloc.release(this.deferred);
  }

  /** The change was not stored: give back what was taken. */
  async revert(): Promise<void> {
    if (!this.dryRun && this.allocated.length > 0) await this.alloc.release(this.allocated);
  }
}

type Port = JsonObject & { port?: unknown; nodePort?: unknown; protocol?: unknown };

const portsOf = (spec: JsonObject | undefined): Port[] => arrayAt(spec, 'ports').map((p) => asObject(p) as Port).filter(Boolean);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const typeOf = (spec: JsonObject | undefined): string => stringAt(spec, 'type') || 'ClusterIP';

/** NodePort and LoadBalancer Services have node ports. */
export function hasNodePorts(spec: JsonObject | undefined): boolean {
  const t = typeOf(spec);
  return t === 'NodePort' || t === 'LoadBalancer';
}

/** apiservice.NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(spec: JsonObject | undefined): boolean {
  return typeOf(spec) === 'LoadBalancer' && stringAt(spec, 'externalTrafficPolicy') === 'Local';
}

/** shouldAllocateNodePorts: always for NodePort; for LoadBalancer unless allocateLoadBalancerNodePorts is false. */
function shouldAllocate(spec: JsonObject): boolean {
  const t = typeOf(spec);
  return t === 'NodePort' || (t === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

/** collectServiceNodePorts of the store (every non-zero nodePort, health check port apart). */
export function serviceNodePorts(spec: JsonObject | undefined): number[] {
  return portsOf(spec).map((p) => num(p.nodePort)).filter((n) => n !== 0);
}

function portInvalid(name: string, i: number, value: number, err: unknown): Error {
  if (!(err instanceof PortAllocationError) || err.reason === 'mismatched-range') return newInternalError(`failed to allocate a nodePort: ${(err as Error).message}`);
  return newInvalid('', 'Service', name, [fieldErrorCause(invalid(`spec.ports[${i}].nodePort`, value, err.message))]);
}

async function next(op: PortOperation): Promise<number> {
  try {
    return await op.allocateNext();
  } catch (err) {
    throw newInternalError(`failed to allocate a nodePort: ${(err as Error).message}`);
  }
}

/** initNodePorts: each port gets the node port it asks for (shared by equal port numbers) or a free one. */
export async function initNodePorts(name: string, spec: JsonObject, op: PortOperation): Promise<void> {
  const ports = portsOf(spec);
  const byServicePort = new Map<number, number>();
  for (let i = 0; i < ports.length; i++) {
    const sp = ports[i] as Port;
    if (num(sp.nodePort) === 0 && !shouldAllocate(spec)) continue;
    const allocated = byServicePort.get(num(sp.port)) ?? 0;
    if (allocated === 0) {
      const requested = num(ports.find((p) => num(p.port) === num(sp.port) && num(p.nodePort) !== 0)?.nodePort);
      if (requested !== 0) {
        try {
          await op.allocate(requested);
        } catch (err) {
          throw portInvalid(name, i, requested, err);
        }
        sp.nodePort = requested;
        byServicePort.set(num(sp.port), requested);
      } else {
        const port = await next(op);
        sp.nodePort = port;
        byServicePort.set(num(sp.port), port);
      }
    } else if (num(sp.nodePort) !== allocated) {
      if (num(sp.nodePort) === 0) sp.nodePort = allocated;
      else {
        try {
          await op.allocate(num(sp.nodePort));
        } catch (err) {
          throw portInvalid(name, i, num(sp.nodePort), err);
        }
      }
    }
  }
}

/** allocHealthCheckNodePort: the requested health check port, or a free one. */
export async function allocHealthCheckNodePort(spec: JsonObject, op: PortOperation): Promise<void> {
  const requested = num(spec.healthCheckNodePort);
  if (requested !== 0) {
    try {
      await op.allocate(requested);
    } catch (err) {
      throw newInternalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${(err as Error).message}`);
    }
    return;
  }
  try {
    spec.healthCheckNodePort = await op.allocateNext();
  } catch (err) {
    throw newInternalError(`failed to allocate a HealthCheck NodePort 0: ${(err as Error).message}`);
  }
}

/** The node ports of a create: each port's, then the health check port. */
export async function allocateCreateNodePorts(name: string, spec: JsonObject, op: PortOperation): Promise<void> {
  if (hasNodePorts(spec)) await initNodePorts(name, spec, op);
  if (needsHealthCheck(spec)) await allocHealthCheckNodePort(spec, op);
}

/** txnUpdateNodePorts: release on a type change away, new and freed ports on an edit, the health check port. */
export async function allocateUpdateNodePorts(name: string, spec: JsonObject, old: JsonObject, op: PortOperation): Promise<void> {
  const t = typeOf(spec);
  if (hasNodePorts(old) && (t === 'ExternalName' || t === 'ClusterIP')) for (const p of serviceNodePorts(old)) op.releaseDeferred(p);
  if (hasNodePorts(spec)) {
    const oldPorts = serviceNodePorts(old);
    const taken = new Set<number>();
    const seen = new Set<string>();
    const ports = portsOf(spec);
    for (let i = 0; i < ports.length; i++) {
      const sp = ports[i] as Port;
      if (num(sp.nodePort) === 0 && !shouldAllocate(spec)) continue;
      let np = num(sp.nodePort);
      if (np !== 0) {
        if (!oldPorts.includes(np) && !taken.has(np)) {
          try {
            await op.allocate(np);
          } catch (err) {
            throw portInvalid(name, i, np, err);
          }
          taken.add(np);
        }
      } else {
        np = await next(op);
        sp.nodePort = np;
      }
      const key = `${String(sp.protocol ?? 'TCP')}/${np}`;
      if (seen.has(key)) throw newInternalError(`duplicate nodePort: {${String(sp.protocol ?? 'TCP')} ${np}}`);
      seen.add(key);
    }
    const now = serviceNodePorts(spec);
    for (const p of oldPorts) if (!now.includes(p)) op.releaseDeferred(p);
  }
  const needed = needsHealthCheck(old);
  const needs = needsHealthCheck(spec);
  if (!needed && needs) await allocHealthCheckNodePort(spec, op);
  else if (needed && !needs && num(old.healthCheckNodePort) !== 0) op.releaseDeferred(num(old.healthCheckNodePort));
}

/** Every node port a stored Service holds (its ports' and its health check port). */
export function heldNodePorts(spec: JsonObject | undefined): number[] {
  const ports = serviceNodePorts(spec);
  if (needsHealthCheck(spec) && num(spec?.healthCheckNodePort) > 0) ports.push(num(spec?.healthCheckNodePort));
  return ports;
}
