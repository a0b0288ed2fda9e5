/**
 * The aggregator of one server: the APIService index, the service resolver, the proxy, and the
 * loops (autoregistration of local APIServices for the built-in and CRD group versions,
 * availability, discovery and OpenAPI of extension servers). Built before the handler chain
 * (which needs the proxy); its loops start once the server is ready and stop with it.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ResourceClient } from '../controllers/resource-client.js';
import type { SharedInformers, StorageLookup } from '../controllers/shared-informers.js';
import type { ApiInstaller } from '../endpoints/installer.js';
import type { ExternalDiscovery } from '../endpoints/discovery/external.js';
import type { Logger } from '../observability/logging.js';
import type { HealthCheck } from '../server/health.js';
import { postStartHookCheck } from '../server/healthz/checks.js';
import type { AggregatorOptions } from '../server/options/aggregator.js';
import type { Registry } from 'prom-client';
import { APIServiceIndex } from './api-services.js';
import { AutoRegister } from './autoregister.js';
import { AvailabilityController } from './availability.js';
import { CRDRegistration } from './crd-registration.js';
import type { AggregatorProxy } from './interface.js';
import { createAvailabilityMetrics } from './metrics.js';
import { OpenApiAggregation, type OpenApiSinks } from './openapi-aggregation.js';
import { apiServiceName, builtinPriority } from './priorities.js';
import { AggregatorProxyHandler } from './proxy.js';
import { RemoteDiscovery } from './remote-discovery.js';
import { ServiceResolver } from './service-resolver.js';
import { BackendTransports, type ProxyClientCertificate } from './transport.js';

/**
 * Reads --proxy-client-cert-file and --proxy-client-key-file; throws (stopping the start) when
 * either cannot be read or they are not a matching pair.
 */
export async function loadProxyClientCertificate(options: AggregatorOptions | undefined): Promise<ProxyClientCertificate | undefined> {
  if (!options?.proxyClientCertFile || !options.proxyClientKeyFile) return undefined;
  const [cert, key] = await Promise.all([readFile(options.proxyClientCertFile, 'utf8'), readFile(options.proxyClientKeyFile, 'utf8')]).catch((err: unknown) => {
    throw new Error(`failed to load proxy client certificate: ${(err as Error).message}`);
  });
  try {
    if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) throw new Error('private key does not match public key');
  } catch (err) {
    throw new Error(`failed to load proxy client certificate ${options.proxyClientCertFile} and key ${options.proxyClientKeyFile}: ${(err as Error).message}`);
  }
  return { cert, key };
}

/** What the aggregator is built from. */
export interface AggregatorDeps {
  readonly informers: SharedInformers;
  readonly storageOf: StorageLookup;
  readonly installer: ApiInstaller;
  readonly options: AggregatorOptions;
  readonly proxyClientCertificate?: ProxyClientCertificate;
  readonly openapi: OpenApiSinks;
  readonly registry: Registry;
  readonly log: Logger;
  /** The availability re-check period (tests shorten kube's 30 s). */
  readonly resyncMs?: number;
  /** The RemoteRequestHeaderUID gate (kube 1.33: on): proxied requests carry the caller's UID in X-Remote-Uid. */
  readonly remoteUid?: boolean;
}

/** A server's aggregator. */
export interface Aggregator {
  readonly proxy: AggregatorProxy;
  readonly discovery: ExternalDiscovery;
  /** Starts the loops (once the server is ready); resolves once they run. */
  start(): Promise<void>;
  /** Resolves once every local APIService registered on start has been seen Available. */
  readonly completed: Promise<void>;
  /** kube's poststarthook/kube-apiserver-autoregistration and autoregister-completion checks. */
  readonly healthChecks: readonly HealthCheck[];
  stop(): void;
}

/** Builds the aggregator; starts the informers it reads at once. */
export function buildAggregator(deps: AggregatorDeps): Aggregator {
  const { informers, log } = deps;
  const apiServicesInformer = informers.get('apiregistration.k8s.io', 'apiservices');
  const services = informers.get('', 'services');
  const endpointSlices = informers.get('discovery.k8s.io', 'endpointslices');
  const index = new APIServiceIndex(apiServicesInformer);
  const resolver = new ServiceResolver(services, endpointSlices, deps.options.enableAggregatorRouting);
  const transports = new BackendTransports(deps.proxyClientCertificate);
  const proxy = new AggregatorProxyHandler({ index, resolver, transports, rejectForwardingRedirect: deps.options.rejectForwardingRedirect, log, remoteUid: deps.remoteUid ?? true });
  const discovery = new RemoteDiscovery({ index, resolver, transports, log });
  const openapi = new OpenApiAggregation({ index, resolver, transports, sinks: deps.openapi, log });
  const apiServices = new ResourceClient(deps.storageOf('apiregistration.k8s.io', 'apiservices') as NonNullable<ReturnType<StorageLookup>>, 'apiregistration.k8s.io', 'apiservices');
  const apiServiceStatus = new ResourceClient(deps.storageOf('apiregistration.k8s.io', 'apiservices', 'status') as NonNullable<ReturnType<StorageLookup>>, 'apiregistration.k8s.io', 'apiservices');
  const register = new AutoRegister(apiServicesInformer, apiServices, log);
  const availability = new AvailabilityController({
    index,
    apiServices: apiServicesInformer,
    services,
    endpointSlices,
    resolver,
    transports,
    status: apiServiceStatus,
    metrics: createAvailabilityMetrics(deps.registry),
    log,
    ...(deps.resyncMs ? { resyncMs: deps.resyncMs } : {}),
  });
  index.onChange((name) => {
    if (!index.get(name)) transports.forget(name);
  });
  let stopped = false;
  let started = false;
  // The built-in group versions, registered on start (kube's apiServicesToRegister).
  const pending = new Set<string>();
  for (const g of deps.installer.groups()) {
    for (const v of g.versions) {
      const priority = builtinPriority(g.group, v.version);
      if (!priority) continue;
      register.want(g.group, v.version, priority, 'onstart');
      pending.add(apiServiceName(g.group, v.version));
    }
  }
  let complete = (): void => undefined;
  const completed = new Promise<void>((resolve) => (complete = resolve));
  const observe = (name: string): void => {
    if (pending.has(name) && index.get(name)?.available) pending.delete(name);
    if (pending.size === 0) complete();
  };
  index.onChange(observe);
  return {
    proxy,
    discovery,
    completed,
    healthChecks: [
      postStartHookCheck('kube-apiserver-autoregistration', () => started),
      {
        name: 'autoregister-completion',
        check: () => {
          if (pending.size > 0) throw new Error(`missing APIService: [${[...pending].sort().join(' ')}]`);
        },
      },
    ],
    async start() {
      // The CRDs' group versions first, so that the first pass deletes no APIService of a CRD that still exists.
      if (deps.storageOf('apiextensions.k8s.io', 'customresourcedefinitions')) {
        await new CRDRegistration(informers.get('apiextensions.k8s.io', 'customresourcedefinitions'), register).start();
      }
      if (stopped) return;
      await register.start();
      started = true;
      for (const name of [...pending]) observe(name);
      availability.start();
      discovery.start();
      openapi.start();
    },
    stop() {
      stopped = true;
      register.stop();
      availability.stop();
      discovery.stop();
      openapi.stop();
      transports.close();
    },
  };
}
