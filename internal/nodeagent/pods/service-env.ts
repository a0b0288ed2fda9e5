/**
 * The service link variables kubelet gives every container (getServiceEnvVarMap): for the
 * "kubernetes" Service of the default namespace always, and for every Service of the pod's
 * namespace when enableServiceLinks is not false, Docker-link style names (<NAME>_SERVICE_HOST,
 * <NAME>_SERVICE_PORT[_<PORT>], <NAME>_PORT, <NAME>_PORT_<port>_<PROTO>[_PROTO|_PORT|_ADDR]).
 * Services without a cluster IP (headless, ExternalName) give none.
 */
import type { ApiClient } from '../client/api-client.js';
import type { Pod } from './types.js';

interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
}

interface Service {
  metadata: { name?: string; namespace?: string };
  spec?: { clusterIP?: string; ports?: ServicePort[] };
}

function envName(s: string): string {
  return s.toUpperCase().replace(/-/g, '_');
}

function addService(out: Map<string, string>, svc: Service): void {
  const ip = svc.spec?.clusterIP;
  const ports = svc.spec?.ports ?? [];
  if (!ip || ip === 'None' || ports.length === 0) return;
  const name = envName(svc.metadata.name ?? '');
  out.set(`${name}_SERVICE_HOST`, ip);
  out.set(`${name}_SERVICE_PORT`, String(ports[0]!.port));
  for (const p of ports) if (p.name) out.set(`${name}_SERVICE_PORT_${envName(p.name)}`, String(p.port));
  const first = ports[0]!;
  const host = ip.includes(':') ? `[${ip}]` : ip;
  out.set(`${name}_PORT`, `${(first.protocol ?? 'TCP').toLowerCase()}://${host}:${first.port}`);
  for (const p of ports) {
    const proto = p.protocol ?? 'TCP';
    const prefix = `${name}_PORT_${p.port}_${proto.toUpperCase()}`;
    out.set(prefix, `${proto.toLowerCase()}://${host}:${p.port}`);
    out.set(`${prefix}_PROTO`, proto.toLowerCase());
    out.set(`${prefix}_PORT`, String(p.port));
    out.set(`${prefix}_ADDR`, ip);
  }
}

/** The service link variables of pod (empty when the Services cannot be read). */
export async function serviceEnv(client: ApiClient, pod: Pod): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ns = pod.metadata.namespace ?? '';
  const links = (pod.spec as { enableServiceLinks?: boolean }).enableServiceLinks !== false;
  const services: Service[] = [];
  try {
    if (links) services.push(...(await client.get<{ items: Service[] }>(`/api/v1/namespaces/${ns}/services`)).items);
    if (!links || ns !== 'default') {
      const master = await client.get<Service>('/api/v1/namespaces/default/services/kubernetes').catch(() => undefined);
      if (master) services.push(master);
    }
  } catch {
    // kubelet goes on without them when its service lister is not synced.
    return out;
  }
  // The pod's own namespace wins over the kubernetes Service of default, as in kubelet.
  const sorted = [...services.filter((s) => s.metadata.namespace !== ns), ...services.filter((s) => s.metadata.namespace === ns)];
  for (const s of sorted) addService(out, s);
  return out;
}
