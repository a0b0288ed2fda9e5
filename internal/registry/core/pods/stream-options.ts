/**
 * pods/exec, pods/attach and pods/portforward options (kube's PodExecOptions, PodAttachOptions,
 * PodPortForwardOptions) decoded from the query as kube's parameter codec decodes them (a boolean
 * is false only as "0" or "false", any case; command, ports repeat), checked, and turned into the
 * kubelet's query (streamParams: input/output/error/tty as "1", command and port repeated).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest } from '../../../apierrors/factories.js';
import { arrayAt, asObject, stringAt } from '../shared/json-value.js';
import { queryBool } from '../../../request/query-params.js';

/** The streaming subresources. */
export type StreamKind = 'exec' | 'attach' | 'portforward';

const kinds: Record<StreamKind, string> = { exec: 'PodExecOptions', attach: 'PodAttachOptions', portforward: 'PodPortForwardOptions' };

function bool(query: URLSearchParams, name: string): boolean {
  return queryBool(query.get(name)) ?? false;
}

/** The options object of kind from the query (throws BadRequest for a port that is not a number). */
export function decodeStreamOptions(kind: StreamKind, query: URLSearchParams): KubeObject {
  const base = { kind: kinds[kind], apiVersion: 'v1' };
  if (kind === 'portforward') {
    const ports = query.getAll('ports').flatMap((p) => p.split(',')).filter((p) => p !== '');
    const parsed = ports.map((p) => {
      const n = /^-?\d+$/.test(p) ? Number(p) : NaN;
      if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw newBadRequest(`strconv.ParseInt: parsing "${p}": invalid syntax`);
      return n;
    });
    return { ...base, ...(parsed.length > 0 ? { ports: parsed } : {}) } as KubeObject;
  }
  const out: Record<string, unknown> = { ...base };
  for (const f of ['stdin', 'stdout', 'stderr', 'tty'] as const) if (bool(query, f)) out[f] = true;
  const container = query.get('container');
  if (container) out.container = container;
  if (kind === 'exec') {
    const command = query.getAll('command');
    if (command.length > 0) out.command = command;
  }
  return out as KubeObject;
}

/** The kubelet's query for the options (kube's streamParams). */
export function kubeletQuery(kind: StreamKind, options: KubeObject): URLSearchParams {
  const o = asObject(options);
  const params = new URLSearchParams();
  if (kind === 'portforward') {
    for (const p of arrayAt(o, 'ports')) params.append('port', String(p));
    return params;
  }
  if (o?.stdin) params.append('input', '1');
  if (o?.stdout) params.append('output', '1');
  if (o?.stderr) params.append('error', '1');
  if (o?.tty) params.append('tty', '1');
  if (kind === 'exec') for (const c of arrayAt(o, 'command')) params.append('command', String(c));
  return params;
}

/** Every container name of the pod: init containers, containers, ephemeral containers (kube's VisitContainers order). */
function containerNames(pod: KubeObject): string[] {
  const spec = asObject(pod.spec);
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) => arrayAt(spec, k).map((c) => stringAt(asObject(c), 'name')));
}

/** kube's validateContainer: the named container must exist; none named defaults to the only one. */
export function resolveContainer(pod: KubeObject, container: string): string {
  const name = stringAt(asObject(pod.metadata), 'name');
  if (container === '') {
    const regular = arrayAt(asObject(pod.spec), 'containers');
    if (regular.length === 1) return stringAt(asObject(regular[0]), 'name');
    if (regular.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
    throw newBadRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`);
  }
  if (!containerNames(pod).includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}
