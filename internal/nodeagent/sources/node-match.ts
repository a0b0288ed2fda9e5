/**
 * The scheduling predicates kubelet re-checks when admitting a pod, over plain JSON: the pod's
 * required node affinity and nodeSelector against the node's labels and name
 * (component-helpers' GetRequiredNodeAffinity), taints against tolerations (ToleratesTaint), and
 * host port conflicts (the scheduler's HostPortInfo).
 */
import type { KubeObject } from '../../../api/meta/types.js';

type Json = Record<string, unknown>;

function asJson(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? (v as Json[]) : [];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

function requirementMatches(req: Json, value: string | undefined): boolean {
  const values = strings(req.values);
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0]!)) return false;
      const have = BigInt(value);
      const want = BigInt(values[0]!);
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

function termMatches(term: Json, labels: Record<string, string>, nodeName: string): boolean {
  const exprs = list(term.matchExpressions);
  const fields = list(term.matchFields);
  if (exprs.length === 0 && fields.length === 0) return false;
  for (const e of exprs) if (!requirementMatches(e, Object.hasOwn(labels, String(e.key)) ? labels[String(e.key)] : undefined)) return false;
  for (const f of fields) if (!requirementMatches(f, f.key === 'metadata.name' ? nodeName : undefined)) return false;
  return true;
}

/** True when the pod's nodeSelector and required node affinity both match the node. */
export function podMatchesNode(pod: KubeObject, node: KubeObject): boolean {
  const spec = asJson(pod.spec);
  const labels = (node.metadata.labels ?? {}) as Record<string, string>;
  for (const [k, v] of Object.entries(asJson(spec.nodeSelector))) if (labels[k] !== String(v)) return false;
  const required = asJson(asJson(asJson(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  if (Object.keys(required).length === 0) return true;
  return list(required.nodeSelectorTerms).some((t) => termMatches(t, labels, node.metadata.name ?? ''));
}

/** Toleration.ToleratesTaint. */
export function toleratesTaint(toleration: Json, taint: Json): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const op = toleration.operator ?? 'Equal';
  if (op === 'Exists') return true;
  if (op === 'Equal' || op === '') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

/** The first of the node's taints passing filter that no toleration of the pod tolerates. */
export function untoleratedTaint(pod: KubeObject, node: KubeObject, filter: (taint: Json) => boolean): Json | undefined {
  const tolerations = list(asJson(pod.spec).tolerations);
  return list(asJson(node.spec).taints).find((t) => filter(t) && !tolerations.some((tol) => toleratesTaint(tol, t)));
}

interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

function hostPorts(pod: KubeObject): HostPort[] {
  const spec = asJson(pod.spec);
  const out: HostPort[] = [];
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    for (const p of list(c.ports)) {
      const port = Number(p.hostPort ?? 0);
      if (port > 0) out.push({ ip: String(p.hostIP || '0.0.0.0'), protocol: String(p.protocol || 'TCP'), port });
    }
  }
  return out;
}

/** True when a host port the pod wants is taken by one of others (same protocol and port, overlapping IP). */
export function hostPortsConflict(pod: KubeObject, others: readonly KubeObject[]): boolean {
  const used = others.flatMap(hostPorts);
  return hostPorts(pod).some((want) => used.some((u) => u.protocol === want.protocol && u.port === want.port && (u.ip === want.ip || u.ip === '0.0.0.0' || want.ip === '0.0.0.0')));
}
