/**
 * The default/kubernetes Service and its Endpoints, as kube-apiserver's bootstrap controller
 * keeps them: the Service holds the first address of --service-cluster-ip-range on port 443, and
 * the Endpoints point at this server's advertise address and --secure-port. Reconciled at start
 * and periodically, so a deleted or edited object comes back.
 */
import { networkInterfaces } from 'node:os';
import type { KubeObject } from '../../api/meta/types.js';
import { hasReason } from '../apierrors/status-error.js';
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';

/** Where the Service and Endpoints point. */
export interface KubernetesServiceConfig {
  readonly clusterIP: string;
  readonly securePort: number;
  /** The address in the Endpoints; undefined when the host has none usable (Endpoints then left alone). */
  readonly advertiseAddress: string | undefined;
}

/** kube's rule: --advertise-address, else --bind-address, else the host's first non-loopback IPv4. */
export function chooseAdvertiseAddress(flag: string | undefined, bindAddress: string): string | undefined {
  if (flag) return flag;
  if (bindAddress !== '0.0.0.0' && bindAddress !== '::') return bindAddress;
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

function desiredService(cfg: KubernetesServiceConfig): KubeObject {
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: cfg.clusterIP,
      clusterIPs: [cfg.clusterIP],
      sessionAffinity: 'None',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: cfg.securePort }],
    },
  };
}

function desiredEndpoints(cfg: KubernetesServiceConfig, ip: string): KubeObject {
  return {
    kind: 'Endpoints',
    apiVersion: 'v1',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port: cfg.securePort, protocol: 'TCP' }] }],
  };
}

async function ensure(storage: RestStorage, resource: string, want: KubeObject, differs: (have: KubeObject) => boolean, patch: (have: KubeObject) => KubeObject): Promise<void> {
  const get = storage.get?.bind(storage);
  const create = storage.create?.bind(storage);
  const update = storage.update?.bind(storage);
  if (!get || !create || !update) throw new Error(`${resource} storage cannot be reconciled`);
  let have: KubeObject | undefined;
  try {
    have = await get(internalContext({ verb: 'get', resource, namespace: 'default', name: 'kubernetes' }), 'kubernetes', { resourceVersion: '' });
  } catch (err) {
    if (!hasReason(err, 'NotFound')) throw err;
  }
  if (!have) {
    try {
      await create(internalContext({ verb: 'create', resource, namespace: 'default' }), structuredClone(want), { dryRun: false });
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) throw err;
    }
    return;
  }
  if (!differs(have)) return;
  await update(internalContext({ verb: 'update', resource, namespace: 'default', name: 'kubernetes' }), 'kubernetes', { updatedObject: async (_c, old) => patch(structuredClone(old ?? have)) }, { dryRun: false });
}

/** Creates or repairs default/kubernetes (Service and Endpoints). */
export async function reconcileKubernetesService(services: RestStorage, endpoints: RestStorage, cfg: KubernetesServiceConfig): Promise<void> {
  const svc = desiredService(cfg);
  await ensure(
    services,
    'services',
    svc,
    (have) => JSON.stringify((have.spec as Record<string, unknown> | undefined)?.ports) !== JSON.stringify((svc.spec as Record<string, unknown>).ports),
    (have) => ({ ...have, spec: { ...((have.spec as object | undefined) ?? {}), ports: (svc.spec as Record<string, unknown>).ports } }),
  );
  if (!cfg.advertiseAddress) return;
  const eps = desiredEndpoints(cfg, cfg.advertiseAddress);
  await ensure(
    endpoints,
    'endpoints',
    eps,
    (have) => JSON.stringify(have.subsets) !== JSON.stringify(eps.subsets),
    (have) => ({ ...have, subsets: eps.subsets }),
  );
}

/** Reconciles now and then every intervalMs; returns the stop function. */
export function keepKubernetesService(services: RestStorage, endpoints: RestStorage, cfg: KubernetesServiceConfig, log: Logger, intervalMs = 10_000): () => void {
  const run = (): void => {
    reconcileKubernetesService(services, endpoints, cfg).catch((err: unknown) => log.warn(`reconciling default/kubernetes failed: ${(err as Error).message}`));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
