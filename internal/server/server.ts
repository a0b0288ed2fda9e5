/**
 * The API server's lifecycle: builds storage, registry, admission, handlers and controllers from
 * the options, serves HTTPS on --bind-address:--secure-port, and shuts down gracefully as
 * kube-apiserver does (lifecycle/graceful-shutdown.ts: readyz fails, the shutdown delay, in-flight
 * requests and watches drain, connections close), then closes etcd.
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { KubeObject } from '../../api/meta/types.js';
import { AdmissionChain } from '../admission/chain.js';
import type { AdmissionPlugin } from '../admission/interface.js';
import { buildAdmissionPlugins, enabledPlugins } from '../admission/plugins/registry.js';
import { admissionVersioning } from '../endpoints/admission-versioning.js';
import { SharedInformers } from '../controllers/shared-informers.js';
import { defaultAdmissionOptions } from './options/admission.js';
import { defaultControllersOptions } from './options/controllers.js';
import { controllersFor } from './in-server-controllers.js';
import { ClusterRoleAggregationController } from '../controllers/clusterrole-aggregation.js';
import { NamespaceController } from '../controllers/namespace/controller.js';
import { CrdServingController } from '../apiextensions/serving/controller.js';
import { ServiceAccountTokenController } from '../controllers/service-account-token/controller.js';
import { chooseAdvertiseAddress, externalAddress, keepKubernetesService, reconcileKubernetesService, removeFromKubernetesService } from '../controllers/kubernetes-service.js';
import { endpointReconcileIntervalMs } from '../controllers/kubernetes-endpoints/build.js';
import { startApiServerIdentity } from '../controllers/apiserver-identity/start.js';
import { defaultStorageLeaseOptions } from './options/storage-leases.js';
import { defaultDeleteCollectionOptions } from './options/delete-collection.js';
import { defaultEventOptions, eventTTLSeconds } from './options/event-ttl.js';
import { defaultKubeletClientOptions } from './options/kubelet-client.js';
import { createKubeletClient } from '../kubeletclient/client.js';
import { ensureSystemNamespaces, keepSystemNamespaces } from '../controllers/system-namespaces.js';
import { DiscoveryHandler } from '../endpoints/discovery/handler.js';
import { ResourceDispatcher } from '../endpoints/dispatcher.js';
import { ApiInstaller } from '../endpoints/installer.js';
import { OpenApiV2Handler } from '../endpoints/openapi/v2.js';
import { OpenApiV3Handler } from '../endpoints/openapi/v3.js';
import { CrdOpenApiController } from '../apiextensions/openapi/controller.js';
import { OpenIdMetadataHandler } from '../endpoints/openid-metadata.js';
import type { KlogLogger, Logger } from '../observability/logging.js';
import { createMetrics, type ServerMetrics } from '../observability/metrics.js';
import { builtinResourceModules } from '../registry/builtin.js';
import { namespacesModule } from '../registry/core/namespaces/store.js';
import { defaultServiceNetworkOptions } from './options/service-network.js';
import type { RestStorage } from '../registry/interface.js';
import type { ResourceRegistration, SecurityHandles } from '../registry/registration.js';
import { buildAudit } from '../audit/build.js';
import { registerAuditMetrics } from '../audit/metrics.js';
import { buildAuthentication } from '../authn/build.js';
import { buildAuthorization } from '../authz/build.js';
import { loadServiceAccountTokenConfig, type ServiceAccountTokenConfig } from '../serviceaccount/config.js';
import { buildOpenIdMetadata } from '../serviceaccount/openid-metadata.js';
import { codecForMediaType } from '../storage/codec.js';
import type { Storage } from '../storage/interface.js';
import { buildChain } from './chain.js';
import { buildAggregator, loadProxyClientCertificate } from '../aggregator/build.js';
import { defaultAggregatorOptions } from './options/aggregator.js';
import { DebugEndpoints } from './debug/endpoints.js';
import { startDebugSocket, type DebugSocket } from './debug/socket.js';
import { defaultProfilingOptions } from './options/profiling.js';
import { startStorageMetrics } from './storage-metrics.js';
import { buildEtcdStorage } from './etcd-storage.js';
import { loadServingCertificate, type ServingCertificate } from './certs.js';
import { defaultSecureServingOptions } from './options/secure-serving.js';
import { ServingTls } from './tls/serving-tls.js';
import { SecureListener, type ProtocolCounts } from './serving/listener.js';
import { defaultHttp2Options } from './options/http2.js';
import { startEncryptionAtRest } from './encryption/encryption-at-rest.js';
import { serverHealthEndpoints } from './healthz/server-checks.js';
import { runGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import type { ServerLifecycle } from './lifecycle/interface.js';
import { RequestWaitGroup } from './lifecycle/request-wait-group.js';
import { LifecycleSignals } from './lifecycle/signals.js';
import { WatchWaitGroup } from './lifecycle/watch-wait-group.js';
import type { ServerOptions } from './options/flags.js';
import { defaultHealthCheckOptions } from './options/health-checks.js';
import { defaultShutdownOptions } from './options/shutdown.js';
import { buildFlowControl } from './flow-control.js';
import { kubernetesServiceConfig } from './kubernetes-service-config.js';
import { namespacedContents } from './namespaced-contents.js';
import { defaultFeatureGates } from '../features/gates.js';
import { recordFeatureGateMetrics } from '../features/metrics.js';
import { gatesWithoutEffect } from '../features/effect.js';
import { EtcdHealthProbe } from '../storage/etcd3/health-check.js';
import { defaultResourceConfig } from './resource-config/defaults.js';
import { servedRegistrations } from './resource-config/served.js';

/** How long the in-server controllers wait for the watch caches before they start anyway. */
const controllerCacheWaitMs = 5_000;

/** A running API server. */
export interface RunningServer {
  /** The port actually bound (useful when --secure-port was chosen by the caller as free). */
  readonly port: number;
  readonly certificate: ServingCertificate;
  /** Resolves once the system namespaces exist and the authorizers have loaded their policy (readyz turns ready). */
  readonly ready: Promise<void>;
  /** The server's Prometheus metrics (also served at /metrics). */
  readonly metrics: ServerMetrics;
  /** Connections the secure port accepted so far, by the protocol ALPN settled on (h2, http/1.1). */
  readonly accepted: Readonly<ProtocolCounts>;
  /** The lifecycle signals (ShutdownInitiated, NotAcceptingNewRequest, ...) of this server. */
  readonly signals: LifecycleSignals;
  /**
   * Graceful shutdown, as on SIGTERM (--shutdown-delay-duration, --shutdown-send-retry-after,
   * --shutdown-watch-termination-grace-period); resolves once nothing is served and etcd is
   * closed. Idempotent. opts.skipPreShutdownHooks (tests): leave as a killed server would, as far
   * as the cluster can tell: this server's address stays in etcd until its TTL lapses.
   */
  stop(opts?: { readonly skipPreShutdownHooks?: boolean }): Promise<void>;
}

/** Starts a server; resolves once it listens. */
export async function startServer(options: ServerOptions, log: KlogLogger): Promise<RunningServer> {
  const secure = options.secureServing ?? defaultSecureServingOptions;
  const certificate = await loadServingCertificate({
    ...(secure.tlsCertFile ? { certFile: secure.tlsCertFile } : {}),
    ...(secure.tlsPrivateKeyFile ? { keyFile: secure.tlsPrivateKeyFile } : {}),
    certDir: secure.certDir,
    bindAddress: options.bindAddress,
  });
  // --proxy-client-cert-file/--proxy-client-key-file: a pair that cannot be loaded stops the start here.
  const proxyClientCertificate = await loadProxyClientCertificate(options.aggregator);
  // Every certificate, the version and the ciphers are checked before anything else starts. The
  // client CAs are the authenticators' (read when the server is made, and at every re-check).
  let clientCAs = (): readonly string[] => [];
  const servingTls = await ServingTls.load({
    certFile: certificate.certFile,
    keyFile: certificate.keyFile,
    sniCertKeys: secure.sniCertKeys,
    minVersion: secure.minTLSVersion,
    cipherSuites: secure.cipherSuites,
    clientCAs: () => clientCAs(),
    log,
  });
  const metrics = createMetrics({
    disabled: new Set(options.metrics?.disabledMetrics ?? []),
    showHidden: (options.metrics?.showHiddenMetricsForVersion ?? '') !== '',
    ...(options.metrics ? { allowLists: options.metrics.allowLists } : {}),
  });
  // --feature-gates: kube's startup warnings, and the kubernetes_feature_enabled series.
  const featureGates = options.featureGates ?? defaultFeatureGates;
  for (const w of featureGates.warnings) log.warn(w);
  for (const w of gatesWithoutEffect(featureGates)) log.warn(w);
  recordFeatureGateMetrics(metrics.registry, featureGates);
  // --kubelet-*: pods/log and nodes/proxy (and the streaming subresources) reach kubelets with it; its
  // certificate files are read here, so a missing one stops the start before anything that needs stopping runs.
  const kubeletClient = createKubeletClient(options.kubeletClient ?? defaultKubeletClientOptions, () => storageOf('', 'nodes'));
  // --tracing-config-file: OpenTelemetry is loaded, and the request path traced, only then.
  const tracing = options.tracing ? (await import('../observability/tracing/server-tracing.js')).startTracing(options.tracing, log) : undefined;
  // --audit-*: a policy or backend that cannot be loaded stops the start here, before anything runs.
  const auditMetrics = registerAuditMetrics(metrics.registry, (m) => log.error(m));
  const audit = await buildAudit(options.audit, { metrics: auditMetrics, log });
  // --encryption-provider-config: an invalid file stops the start here, before etcd is dialled.
  const encryption = await startEncryptionAtRest(options.encryption, { log, metrics, kmsV1: featureGates.enabled('KMSv1') });
  // Objects read from etcd get their version's defaulting, set once the registrations exist.
  let defaultStored: ((obj: KubeObject) => void) | undefined;
  // --etcd-*: every etcd client (TLS files read here: a missing one stops the start), the stores,
  // their watch caches, and each --etcd-servers-overrides resource on its own backend.
  const etcd = await buildEtcdStorage(options, {
    storeOptions: {
      prefix: options.etcdPrefix,
      codec: codecForMediaType(options.storageMediaType),
      callTimeoutMs: options.requestTimeoutMs,
      onDecode: (obj) => defaultStored?.(obj),
      observe: metrics.storage.observe,
      leaseReuseSeconds: (options.storageLeases ?? defaultStorageLeaseOptions).reuseDurationSeconds,
      ...(encryption ? { transformers: encryption.transformers } : {}),
      ...(tracing ? { instrument: tracing.etcd } : {}),
    },
    metrics,
    log: (m) => log.warn(m),
  }).catch((err: unknown) => {
    encryption?.stop();
    void tracing?.shutdown();
    throw err;
  });
  const client = etcd.main.client;
  const storage: Storage = etcd.storage;

  const security: SecurityHandles = {};
  // Service account tokens are issued and verified only when their flags are given.
  const serviceAccountTokens = options.serviceAccount ? await loadServiceAccountTokenConfig(options.serviceAccount, certificate, log) : undefined;
  const storageOf = (group: string, resource: string, subresource?: string): RestStorage | undefined => installer.storageOf(group, resource, subresource);
  const buildable: ResourceRegistration[] = [namespacesModule, ...builtinResourceModules].flatMap((m) =>
    m({
      storage,
      serviceClusterIPRange: options.serviceClusterIPRange,
      serviceNodePortRange: (options.serviceNetwork ?? defaultServiceNetworkOptions).nodePortRange,
      security,
      storageOf,
      storeSettings: { deleteCollectionWorkers: (options.deleteCollection ?? defaultDeleteCollectionOptions).workers },
      eventTTLSeconds: eventTTLSeconds(options.events ?? defaultEventOptions),
      proxyBytesPerSec: (options.http2 ?? defaultHttp2Options).maxConnectionBytesPerSec,
      featureGates,
      kubeletClient,
      ...(serviceAccountTokens ? { serviceAccountTokens } : {}),
    }),
  );
  // --runtime-config over kube's defaults, and the resources' feature gates: what is left out is
  // never installed, so routes (404), discovery, OpenAPI and the local APIServices all follow.
  let registrations: ResourceRegistration[];
  try {
    registrations = servedRegistrations(buildable, options.apiEnablement ?? defaultResourceConfig(), options.featureGates ?? defaultFeatureGates, log);
  } catch (err) {
    etcd.stopCaches();
    etcd.close();
    encryption?.stop();
    void tracing?.shutdown();
    throw err;
  }
  const installer = new ApiInstaller(registrations);
  const controllers = controllersFor((group) => installer.groups().some((g) => g.group === group));
  security.authentication = await buildAuthentication(options.authentication, {
    storageOf,
    log,
    metrics,
    ...(serviceAccountTokens ? { serviceAccountTokens } : {}),
  }, options);
  try {
    security.authorization = await buildAuthorization(options.authorization, { storageOf, log, metrics });
  } catch (err) {
    // An authorizer that cannot be built (a bad ABAC policy file or webhook kubeconfig) stops the start.
    security.authentication.stop();
    etcd.stopCaches();
    etcd.close();
    void tracing?.shutdown();
    throw err;
  }
  let authorizationSynced = false;
  void security.authorization.ready.then(() => (authorizationSynced = true));
  // Decoding from etcd defaults in the storage version even where --runtime-config serves only another.
  const builtinStoredDefaulter = (registrations.length === buildable.length ? installer : new ApiInstaller(buildable)).storedObjectDefaulter();
  defaultStored = (obj) => {
    builtinStoredDefaulter(obj);
    crdServing.defaultStored(obj);
  };
  const namespaces = registrations.find((r) => r.group === '' && r.resource === 'namespaces') as ResourceRegistration;
  const namespaceStorage = namespaces.main;

  // Shared by admission plugins and in-server controllers; stopped with the server.
  const informers = new SharedInformers(storageOf, log);
  // Custom resources served live (kube's apiextensions-apiserver: start-apiextensions-controllers,
  // and crd-informer-synced, which readiness waits for so existing CRDs are served after a restart).
  const crdServing = new CrdServingController({
    installer,
    informers,
    storage,
    storageOf,
    storeSettings: { deleteCollectionWorkers: (options.deleteCollection ?? defaultDeleteCollectionOptions).workers },
    log,
  });
  let crdInformerSynced = false;
  const crdServingSynced = crdServing.start().then(() => void (crdInformerSynced = true));
  const admissionStop = new AbortController();
  const admissionOptions = options.admission ?? defaultAdmissionOptions;
  let admissionPlugins: AdmissionPlugin[];
  try {
    admissionPlugins = await buildAdmissionPlugins(
      enabledPlugins(admissionOptions.enable, admissionOptions.disable),
      admissionOptions.pluginConfig,
      {
        storageOf,
        informers,
        authorizer: () => (security.authorization as NonNullable<typeof security.authorization>).authorizer,
        versionsOf: (group, resource, subresource) =>
          (installer.groups().find((g) => g.group === group)?.versions ?? []).flatMap((v) => {
            const scope = installer.lookup(group, v.version, resource, subresource);
            return scope ? [{ version: v.version, versioning: admissionVersioning(scope) }] : [];
          }),
        options,
        log,
        metrics,
        shutdown: admissionStop.signal,
      },
      new Set(admissionOptions.enable),
    );
  } catch (err) {
    admissionStop.abort();
    informers.stop();
    security.authentication.stop();
    security.authorization.stop();
    etcd.stopCaches();
    etcd.close();
    encryption?.stop();
    void tracing?.shutdown();
    throw err;
  }
  log.info(`Loaded ${admissionPlugins.length} admission plugin(s) in the following order: ${admissionPlugins.map((p) => p.name).join(',')}.`);
  const admission = tracing ? tracing.admissionChain(admissionPlugins, metrics.admission.observer) : new AdmissionChain(admissionPlugins, metrics.admission.observer);

  const shutdownOptions = options.shutdown ?? defaultShutdownOptions;
  const lifecycle: ServerLifecycle = {
    signals: new LifecycleSignals(),
    requests: new RequestWaitGroup(),
    ...(shutdownOptions.watchTerminationGracePeriodMs > 0 ? { watches: new WatchWaitGroup() } : {}),
    sendRetryAfter: shutdownOptions.sendRetryAfter,
  };
  // Aborted when the HTTP server is told to stop: kube cancels its post-start hooks' context then.
  const postStartHooks = new AbortController();
  // Aborted at the very end: ends the watches still open (those without a signal of their own).
  const cut = new AbortController();
  // Every open watch without a grace period listens for it: thousands are normal, not a leak.
  setMaxListeners(0, cut.signal);
  const dispatcher = new ResourceDispatcher(installer, admission, {
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds,
    shutdown: cut.signal,
    metrics,
    log,
    watchList: featureGates.enabled('WatchList'),
  });
  // --profiling serves the debug endpoints on the secure port; --debug-socket-path on a unix socket.
  const profiling = options.profiling ?? defaultProfilingOptions;
  const debugEndpoints = new DebugEndpoints({ log, shutdown: postStartHooks.signal });
  let debugSocket: DebugSocket | undefined;
  try {
    if (profiling.debugSocketPath) debugSocket = await startDebugSocket(profiling.debugSocketPath, debugEndpoints, log);
  } catch (err) {
    security.authentication.stop();
    security.authorization.stop();
    etcd.stopCaches();
    etcd.close();
    encryption?.stop();
    throw err;
  }
  let boundPort = options.securePort;
  const discovery = new DiscoveryHandler(installer, () => `${options.bindAddress === '0.0.0.0' ? '127.0.0.1' : options.bindAddress}:${boundPort}`, options.gitVersion, featureGates.enabled('StorageVersionHash'));
  const openapi = new OpenApiV3Handler(installer);
  const openapiV2 = new OpenApiV2Handler(installer);
  // API aggregation: APIServices, the proxy to extension servers, their discovery and OpenAPI.
  const aggregator = buildAggregator({
    informers,
    storageOf,
    installer,
    options: options.aggregator ?? defaultAggregatorOptions,
    remoteUid: featureGates.enabled('RemoteRequestHeaderUID'),
    ...(proxyClientCertificate ? { proxyClientCertificate } : {}),
    openapi: { v2: openapiV2, v3: openapi },
    registry: metrics.registry,
    log,
    ...(options.controlPlaneTuning?.apiServiceResyncMs ? { resyncMs: options.controlPlaneTuning.apiServiceResyncMs } : {}),
  });
  discovery.setExternal(aggregator.discovery);

  let systemNamespacesReady = false;
  let bootstrapReady = false;
  // The in-server controllers that are kube post-start hooks: readyz waits for each.
  const controllerHooks = new Map(
    controllers
      .filter((c) => c.postStartHook)
      .map((c) => {
        const hook = { name: c.postStartHook as string, isDone: false, resolve: (): void => undefined, done: Promise.resolve() };
        hook.done = new Promise<void>((resolve) => (hook.resolve = resolve)).then(() => void (hook.isDone = true));
        return [c.name, hook] as const;
      }),
  );
  // --enable-priority-and-fairness, --max-requests-inflight, --max-mutating-requests-inflight.
  const flowControl = buildFlowControl(options.flowControl, {
    requestTimeoutMs: options.requestTimeoutMs,
    informers,
    storageOf,
    objectCounts: etcd.objectCounts,
    registry: metrics.registry,
    requestMetrics: metrics.requests,
    log,
    featureGates: options.featureGates ?? defaultFeatureGates,
  });
  const etcdProbe = new EtcdHealthProbe(options.etcdServers, options.etcdPrefix, etcd.factory);
  const rbacPolicy = security.authorization.rbac;
  const health = serverHealthEndpoints({
    options: options.healthChecks ?? defaultHealthCheckOptions,
    etcd: etcdProbe,
    encryptionChecks: encryption?.healthChecks ?? [],
    authorizationSynced: () => authorizationSynced,
    systemNamespacesReady: () => systemNamespacesReady,
    bootstrapReady: () => bootstrapReady,
    ...(rbacPolicy ? { rbacBootstrapped: () => rbacPolicy.bootstrapped() } : {}),
    apiextensionsHooks: [
      { name: 'start-apiextensions-informers', done: () => true },
      { name: 'start-apiextensions-controllers', done: () => true },
      { name: 'crd-informer-synced', done: () => crdInformerSynced },
    ],
    controllerHooks: [...controllerHooks.values()].map((h) => ({ name: h.name, done: () => h.isDone })),
    flowControlHooks: flowControl.postStartHooks ?? [],
    aggregatorChecks: aggregator.healthChecks,
    shutdownInitiated: lifecycle.signals.shutdownInitiated,
  });

  const openidMetadata = serviceAccountTokens
    ? openIdMetadataHandler(serviceAccountTokens, externalAddress(options.externalHostname ?? chooseAdvertiseAddress(options.advertiseAddress, options.bindAddress) ?? hostname(), options.securePort), log)
    : undefined;
  // CRDs' schemas join /openapi/v2 and /openapi/v3 as they become Established.
  const stopCrdOpenApi = installer.storageOf('apiextensions.k8s.io', 'customresourcedefinitions')
    ? new CrdOpenApiController(informers.get('apiextensions.k8s.io', 'customresourcedefinitions'), { v2: openapiV2, v3: openapi }, log).start()
    : undefined;
  const chain = buildChain({
    health,
    discovery,
    dispatcher,
    aggregator: aggregator.proxy,
    openapi,
    openapiV2,
    requestTimeoutMs: options.requestTimeoutMs,
    log,
    metrics,
    served: installer,
    authenticator: security.authentication.authenticator,
    authorizer: security.authorization.authorizer,
    hstsDirectives: options.hsts?.directives ?? [],
    corsAllowedOrigins: options.cors?.allowedOrigins ?? [],
    goawayChance: (options.http2 ?? defaultHttp2Options).goawayChance,
    ...(openidMetadata ? { openidMetadata } : {}),
    ...(tracing ? { tracing } : {}),
    lifecycle,
    ...(profiling.enabled ? { debug: debugEndpoints } : {}),
    ...(audit ? { audit: { policy: audit.policy, backend: audit.backend, metrics: auditMetrics, log } } : {}),
    flowControl,
    responseCompression: featureGates.enabled('APIResponseCompression'),
  });
  audit?.backend.run?.();
  // Client certificates are asked for when a method uses them, and judged by the authenticators
  // (an unknown or expired one is a 401, not a failed handshake), as kube-apiserver does.
  const authentication = security.authentication;
  clientCAs = () => authentication.clientCAs();
  // The secure port (serving/listener.ts): HTTP/2 by ALPN, HTTP/1.1 for the rest and for upgrades.
  // Both go through the chain's one function (serving/protocol.ts says what differs between them).
  const listener = new SecureListener({
    tls: servingTls,
    http2: options.http2 ?? defaultHttp2Options,
    handler: chain.serve,
    clientCertificates: () => authentication.clientCAs().length > 0,
    log,
  });
  // A replaced CA file takes effect at once (kube's dynamic client CA): the certificate request
  // names the CAs, and clients that pick a certificate by those names need the new ones.
  authentication.onClientCAsChange?.(() => servingTls.refresh());

  boundPort = await listener.listen(options.securePort, options.bindAddress).catch((err: unknown) => {
    etcdProbe.close();
    throw err;
  });
  log.info(`Serving securely on ${options.bindAddress}:${boundPort}`);

  flowControl.start();
  const stopCompactors = etcd.startCompactors(options.etcdCompactionIntervalMs, (m) => log.warn(m));
  const stopStorageMetrics = startStorageMetrics({ store: etcd.objectCounts, client, etcdServers: options.etcdServers, clients: etcd.factory, metrics, options: options.metrics, log });
  const namespaceController = new NamespaceController({
    namespaces: namespaceStorage,
    namespaceStatus: namespaces.subresources.status as RestStorage,
    finalize: namespaces.subresources.finalize as RestStorage,
    contents: namespacedContents(registrations, installer),
    orderedDeletion: featureGates.enabled('OrderedNamespaceDeletion'),
    log,
  });
  const disabledLoops = (options.controllers ?? defaultControllersOptions).disabled;
  if (!disabledLoops.has('namespace-controller')) namespaceController.start();
  // Capstan has no controller manager: the token controller of Secret-based tokens runs here.
  const tokenController = serviceAccountTokens
    ? new ServiceAccountTokenController({
        secrets: storageOf('', 'secrets') as RestStorage,
        serviceAccounts: storageOf('', 'serviceaccounts') as RestStorage,
        generator: serviceAccountTokens.legacyGenerator,
        ...(certificate.ca ? { rootCA: certificate.ca } : {}),
        log,
      })
    : undefined;
  if (!disabledLoops.has('serviceaccount-token-controller')) tokenController?.start();
  const clusterRoleStorage = storageOf('rbac.authorization.k8s.io', 'clusterroles');
  const aggregationController = clusterRoleStorage ? new ClusterRoleAggregationController({ storage: clusterRoleStorage, log }) : undefined;
  if (!disabledLoops.has('clusterrole-aggregation-controller')) aggregationController?.start();
  const serviceStorage = registrations.find((r) => r.group === '' && r.resource === 'services')?.main as RestStorage;
  // Several servers on one etcd: the kubernetes Service lists every live one (--endpoint-reconciler-type).
  const tuning = options.controlPlaneTuning ?? {};
  const reconcileIntervalMs = tuning.endpointReconcileIntervalMs ?? endpointReconcileIntervalMs;
  const kubernetesService = kubernetesServiceConfig(options, {
    endpoints: registrations.find((r) => r.group === '' && r.resource === 'endpoints')?.main as RestStorage,
    endpointSlices: storageOf('discovery.k8s.io', 'endpointslices') as RestStorage,
    client,
    boundPort,
  });
  let stopKeepingService = (): void => undefined;
  const ready = ensureSystemNamespaces(namespaceStorage, log, postStartHooks.signal)
    .then(() => {
      systemNamespacesReady = true;
      return reconcileKubernetesService(serviceStorage, kubernetesService);
    })
    .then(
      () => undefined,
      (err: unknown) => log.warn(`creating default/kubernetes failed, will retry: ${(err as Error).message}`),
    )
    .then(() => {
      bootstrapReady = true;
      if (!lifecycle.signals.shutdownInitiated.signaled) stopKeepingService = keepKubernetesService(serviceStorage, kubernetesService, log, reconcileIntervalMs);
    })
    // Authorization is ready once RBAC's informers have synced and its bootstrap roles exist.
    .then(() => security.authorization?.ready);
  const stopKeeping = keepSystemNamespaces(namespaceStorage, log);
  // APIServerIdentity's post-start hooks: once kube-system exists and the watch caches have their
  // initial state (so the Lease's first write does not come between a cache's start and the last
  // resourceVersion a client saw before a restart).
  let stopIdentity = (): void => undefined;
  void Promise.all([ready, etcd.main.watchCache?.waitReady(), ...[...etcd.overrides.values()].map((b) => b.watchCache?.waitReady())]).then(() => {
    // The APIServerIdentity gate (kube 1.33: on) runs both hooks; off, neither.
    if (!postStartHooks.signal.aborted && featureGates.enabled('APIServerIdentity')) stopIdentity = startApiServerIdentity(storageOf('coordination.k8s.io', 'leases') as RestStorage, log, tuning);
  }, () => undefined);

  // The in-server controllers (internal/server/in-server-controllers.ts), once the system namespaces
  // exist and the watch caches have their initial state (their informers then list at once,
  // rather than retrying while the caches fill).
  const controllerStops: (() => void | Promise<void>)[] = [];
  // A cache that cannot fill (values no configured key decrypts) must not hold readiness back: the
  // controllers wait for the caches at most a few seconds.
  const cachesReady = Promise.race([
    Promise.all([etcd.main.watchCache?.waitReady(), ...[...etcd.overrides.values()].map((b) => b.watchCache?.waitReady())]),
    new Promise<void>((resolve) => setTimeout(resolve, controllerCacheWaitMs).unref()),
  ]);
  const controllersSynced = Promise.all([ready, cachesReady]).then(async () => {
    if (postStartHooks.signal.aborted) return;
    const synced: Promise<void>[] = [];
    for (const c of controllers) {
      if (disabledLoops.has(c.name)) continue;
      try {
        const hookDone = controllerHooks.get(c.name)?.resolve ?? ((): void => undefined);
        const stop = c.start({ storageOf, informers, storage, etcd: client, options, log, metrics, shutdown: admissionStop.signal, hookDone, served: installer, authorizer: () => (security.authorization as NonNullable<typeof security.authorization>).authorizer, ...(certificate.ca ? { rootCA: certificate.ca } : {}) });
        controllerStops.push(stop);
        if (stop.synced) synced.push(stop.synced);
      } catch (err) {
        log.error(`starting controller ${c.name} failed: ${(err as Error).message}`);
      }
    }
    await Promise.all(synced);
  }, () => undefined);
  // Ready once the local APIServices of the built-in group versions are registered and seen
  // Available (kube's autoregister-completion), waited for at most a few seconds here: readyz
  // keeps reporting the check either way.
  const aggregatorReady = controllersSynced
    .then(() => {
      if (!postStartHooks.signal.aborted) return aggregator.start();
    })
    .then(() => Promise.race([aggregator.completed, new Promise<void>((resolve) => setTimeout(resolve, controllerCacheWaitMs).unref())]))
    .catch((err: unknown) => log.error(`starting the aggregator failed: ${(err as Error).message}`));

  let stopping: Promise<void> | undefined;
  const stop = (opts: { readonly skipPreShutdownHooks?: boolean } = {}): Promise<void> => {
    stopping ??= (async () => {
      await runGracefulShutdown({
        lifecycle,
        server: listener,
        sockets: listener.sockets,
        delayMs: shutdownOptions.delayDurationMs,
        watchGraceMs: shutdownOptions.watchTerminationGracePeriodMs,
        requestTimeoutMs: options.requestTimeoutMs,
        log,
        // kube's bootstrap-controller pre-shutdown hook stops keeping the kubernetes service and
        // takes this server's address out of its endpoints.
        preShutdown: async () => {
          stopKeepingService();
          if (!opts.skipPreShutdownHooks) await removeFromKubernetesService(kubernetesService, log, reconcileIntervalMs);
        },
        onStopHttpServer: () => {
          postStartHooks.abort();
          stopKeeping();
          stopIdentity();
          namespaceController.stop();
          crdServing.stop();
          tokenController?.stop();
          aggregationController?.stop();
          admissionStop.abort();
          aggregator.stop();
          flowControl.stop();
          stopCrdOpenApi?.();
          for (const stopController of controllerStops) void stopController();
          informers.stop();
        },
        onCut: () => cut.abort(),
      });
      cut.abort();
      await debugSocket?.stop();
      stopCompactors();
      // As kube: the audit backends are flushed once the server has stopped answering.
      await audit?.backend.shutdown();
      servingTls.stop();
      security.authentication?.stop();
      security.authorization?.stop();
      etcd.stopCaches();
      await etcd.closeWatches();
      etcdProbe.close();
      stopStorageMetrics();
      metrics.stop();
      etcd.close();
      encryption?.stop();
      // Last: the request spans have ended with their responses; what is queued is exported.
      await tracing?.shutdown();
    })();
    return stopping;
  };
  // Priority and fairness's first digest of the stored configuration, waited for at most a few
  // seconds (readyz keeps reporting poststarthook/priority-and-fairness-config-consumer either way).
  const flowControlReady = Promise.race([flowControl.ready, new Promise<void>((resolve) => setTimeout(resolve, controllerCacheWaitMs).unref())]);
  // Ready once bootstrapped and the authorizers' informers have synced (readyz's informer-sync).
  const allReady = Promise.all([ready, security.authorization.ready, controllersSynced, crdServingSynced, aggregatorReady, flowControlReady, ...[...controllerHooks.values()].map((h) => h.done)]).then(() => undefined);
  return { port: boundPort, certificate, ready: allReady, metrics, accepted: listener.accepted, signals: lifecycle.signals, stop };
}

/**
 * The issuer discovery endpoints, or undefined (logged as kube logs it) when the first issuer is
 * not a URL relying parties can use.
 */
function openIdMetadataHandler(config: ServiceAccountTokenConfig, externalAddress: string, log: Logger): OpenIdMetadataHandler | undefined {
  try {
    return new OpenIdMetadataHandler(buildOpenIdMetadata(config.issuers[0] as string, config.jwksUri, externalAddress, config.verificationKeys));
  } catch (err) {
    log.error(`Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: ${(err as Error).message}`);
    return undefined;
  }
}
