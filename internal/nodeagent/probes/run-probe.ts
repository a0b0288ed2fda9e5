/**
 * One probe attempt for a container's probe spec (kubelet's prober.runProbe): picks the handler
 * (exec, httpGet, tcpSocket, grpc), resolves its port (a number or the name of a container port)
 * and host (the pod IP unless given), and runs it with the probe's timeoutSeconds.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { CriClient } from '../runtime/cri-client.js';
import { execProbe, expandCommand } from './exec-probe.js';
import { grpcProbe } from './grpc-probe.js';
import { httpProbe, type ProbeHeader } from './http-probe.js';
import type { ProbeOutcome } from './interface.js';
import { joinHostPort, tcpProbe } from './tcp-probe.js';

type Json = Record<string, any>;

/** What a probe attempt runs against. */
export interface ProbeTarget {
  readonly pod: KubeObject;
  readonly container: Json;
  readonly containerId: string;
  /** The pod's IP (the default host of network probes). */
  readonly podIP: string;
}

/** kubelet's ResolveContainerPort: a number, or the containerPort of the container's port of that name. */
export function resolvePort(port: unknown, container: Json): number {
  if (typeof port === 'number') return port;
  if (typeof port === 'string' && /^\d+$/.test(port)) return Number(port);
  const named = (Array.isArray(container.ports) ? container.ports : []).find((p: Json) => p.name === port);
  if (named) return Number(named.containerPort);
  throw new Error(`couldn't find port: ${String(port)} in container ${String(container.name)}`);
}

function errored(err: Error): ProbeOutcome {
  return { result: 'unknown', output: '', error: err };
}

/** Runs probe (a Probe object of the container) once. */
export async function runProbe(probe: Json, target: ProbeTarget, cri: CriClient | undefined): Promise<ProbeOutcome> {
  const timeoutSeconds = Number(probe.timeoutSeconds ?? 1);
  const timeoutMs = timeoutSeconds * 1000;
  try {
    if (probe.exec) {
      if (!cri) return errored(new Error('exec probes need a container runtime'));
      const cmd = expandCommand(Array.isArray(probe.exec.command) ? probe.exec.command : [], Array.isArray(target.container.env) ? target.container.env : []);
      return await execProbe(cri, target.containerId, cmd, timeoutSeconds);
    }
    if (probe.httpGet) {
      const h = probe.httpGet as Json;
      const scheme = String(h.scheme ?? 'HTTP').toLowerCase();
      const host = String(h.host || target.podIP);
      const port = resolvePort(h.port, target.container);
      const path = String(h.path ?? '');
      const url = `${scheme}://${joinHostPort(host, port)}${path.startsWith('/') ? path : `/${path}`}`;
      return await httpProbe(url, (Array.isArray(h.httpHeaders) ? h.httpHeaders : []) as ProbeHeader[], timeoutMs);
    }
    if (probe.tcpSocket) {
      const t = probe.tcpSocket as Json;
      return await tcpProbe(String(t.host || target.podIP), resolvePort(t.port, target.container), timeoutMs);
    }
    if (probe.grpc) {
      const g = probe.grpc as Json;
      return await grpcProbe(target.podIP, Number(g.port), String(g.service ?? ''), timeoutMs);
    }
  } catch (err) {
    return errored(err as Error);
  }
  return errored(new Error(`missing probe handler for ${target.pod.metadata.namespace}/${target.pod.metadata.name}:${target.container.name}`));
}
