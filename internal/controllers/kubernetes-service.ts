/**
 * The default/kubernetes Service and its endpoints, as kube-apiserver's bootstrap controller
 * keeps them: the Service holds the first address of --service-cluster-ip-range on port 443, and
 * the endpoint reconciler (--endpoint-reconciler-type; kubernetes-endpoints/) lists this server's
 * advertise address and --secure-port in the Endpoints and EndpointSlice. Reconciled at start and
 * every interval (kube's 10 s), so a deleted or edited object comes back.
 */
import { networkInterfaces } from 'node:os';
import type { KubeObject } from '../../api/meta/types.js';
import { hasReason } from '../apierrors/status-error.js';
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';
import type { EndpointPort, EndpointReconciler } from './kubernetes-endpoints/interface.js';

/** Where the Service and Endpoints point. */
export interface KubernetesServiceConfig {
  readonly clusterIP: string;
  readonly securePort: number;
  /** The address in the Endpoints; undefined when the host has none usable (Endpoints then left alone). */
  readonly advertiseAddress: string | undefined;
  /** The endpoint reconciler; undefined with --endpoint-reconciler-type=none (Endpoints left alone). */
  readonly reconciler: EndpointReconciler | undefined;
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

/**
 * kube's ExternalAddress: --external-hostname, else the advertise address, else the host name; a
 * host without a port gets the secure port (Go's SplitHostPort decides whether one is there).
 */
export function externalAddress(host: string, securePort: number): string {
  const hasPort = /^\[[^\]]*\]:[^:]*$/.test(host) || /^[^:[\]]*:[^:]*$/.test(host);
  if (hasPort) return host;
  return host.includes(':') ? `[${host}]:${securePort}` : `${host}:${securePort}`;
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

function endpointPorts(cfg: KubernetesServiceConfig): EndpointPort[] {
  return [{ name: 'https', port: cfg.securePort, protocol: 'TCP' }];
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

/** Creates or repairs default/kubernetes: the Service, then its endpoints through the reconciler. */
export async function reconcileKubernetesService(services: RestStorage, cfg: KubernetesServiceConfig): Promise<void> {
  const svc = desiredService(cfg);
  await ensure(
    services,
    'services',
    svc,
    (have) => JSON.stringify((have.spec as Record<string, unknown> | undefined)?.ports) !== JSON.stringify((svc.spec as Record<string, unknown>).ports),
    (have) => ({ ...have, spec: { ...((have.spec as object | undefined) ?? {}), ports: (svc.spec as Record<string, unknown>).ports } }),
  );
  if (!cfg.advertiseAddress || !cfg.reconciler) return;
  await cfg.reconciler.reconcile(cfg.advertiseAddress, endpointPorts(cfg), true);
}

/** Reconciles every intervalMs (kube's 10 s); returns the stop function. */
export function keepKubernetesService(services: RestStorage, cfg: KubernetesServiceConfig, log: Logger, intervalMs = 10_000): () => void {
  const run = (): void => {
    reconcileKubernetesService(services, cfg).catch((err: unknown) => log.warn(`reconciling default/kubernetes failed: ${(err as Error).message}`));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * kube's pre-shutdown hook of the bootstrap controller: no more reconciling, then this server's
 * address is taken out (its lease removed and the endpoints rewritten), waiting at most two
 * intervals for that.
 */
export async function removeFromKubernetesService(cfg: KubernetesServiceConfig, log: Logger, intervalMs = 10_000): Promise<void> {
  const reconciler = cfg.reconciler;
  if (!reconciler || !cfg.advertiseAddress) return;
  reconciler.stopReconciling();
  let timer: NodeJS.Timeout | undefined;
  const removed = reconciler.remove(cfg.advertiseAddress, endpointPorts(cfg)).then(
    () => true,
    (err: unknown) => {
      log.error(`Unable to remove endpoints from kubernetes service: ${(err as Error).message}`);
      return true;
    },
  );
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 2 * intervalMs);
    timer.unref();
  });
  if (!(await Promise.race([removed, timedOut]))) log.warn('RemoveEndpoints() timed out');
  clearTimeout(timer);
}
