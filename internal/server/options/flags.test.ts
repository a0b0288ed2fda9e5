import { defaultKubeletClientOptions } from './kubelet-client.js';
import { defaultDeleteCollectionOptions } from './delete-collection.js';
import { defaultEventOptions } from './event-ttl.js';
import { defaultFlowControlOptions } from './flow-control.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultAuditOptions } from './audit.js';
import { defaultAuthenticationOptions } from './authentication.js';
import { defaultAuthorizationOptions } from './authorization.js';
import { defaultCorsOptions } from './cors.js';
import { defaultEncryptionOptions } from './encryption.js';
import { defaultEtcdOptions } from './etcd.js';
import { parseFlags } from './flags.js';
import { defaultHealthCheckOptions } from './health-checks.js';
import { defaultHstsOptions } from './hsts.js';
import { defaultLoggingOptions } from './logging.js';
import { defaultProfilingOptions } from './profiling.js';
import { defaultMetricsOptions } from './metrics.js';
import { defaultSecureServingOptions } from './secure-serving.js';
import { defaultShutdownOptions } from './shutdown.js';
import { defaultEndpointReconcilerOptions } from './endpoint-reconciler.js';
import { defaultStorageLeaseOptions } from './storage-leases.js';
import { defaultAdmissionOptions } from './admission.js';
import { defaultAggregatorOptions } from './aggregator.js';
import { defaultControllersOptions } from './controllers.js';
import { defaultTolerationSecondsOptions } from './default-toleration-seconds.js';
import { defaultServiceNetworkOptions } from './service-network.js';
import { defaultHttp2Options } from './http2.js';
import { defaultCsrSigningOptions } from './csr-signing.js';
import { defaultResourceConfig } from '../resource-config/defaults.js';

const run = (args: string[]) => parseFlags(args, 'Kubernetes v1.33.0+capstan');

describe('apiserver flags', () => {
  it('kube-apiserver defaults', () => {
    const r = run(['--etcd-servers=http://127.0.0.1:2379']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options, {
      etcdServers: ['http://127.0.0.1:2379'],
      etcdPrefix: '/registry',
      storageMediaType: 'application/vnd.kubernetes.protobuf',
      watchCache: true,
      watchCacheSizes: new Map(),
      defaultWatchCacheSize: 100,
      securePort: 6443,
      bindAddress: '0.0.0.0',
      etcdCompactionIntervalMs: 300_000,
      requestTimeoutMs: 60_000,
      minRequestTimeoutSeconds: 1800,
      verbosity: 0,
      serviceClusterIPRange: '10.0.0.0/24',
      // Every flag group's defaults.
      secureServing: defaultSecureServingOptions,
      http2: defaultHttp2Options,
      cors: defaultCorsOptions,
      hsts: defaultHstsOptions,
      authentication: defaultAuthenticationOptions,
      authorization: defaultAuthorizationOptions,
      admission: defaultAdmissionOptions,
      aggregator: defaultAggregatorOptions,
      controllers: defaultControllersOptions,
      csrSigning: defaultCsrSigningOptions,
      defaultTolerationSeconds: defaultTolerationSecondsOptions,
      audit: defaultAuditOptions,
      etcd: defaultEtcdOptions,
      encryption: defaultEncryptionOptions,
      healthChecks: defaultHealthCheckOptions,
      shutdown: defaultShutdownOptions,
      profiling: defaultProfilingOptions,
      logging: defaultLoggingOptions,
      metrics: defaultMetricsOptions,
      endpointReconciler: defaultEndpointReconcilerOptions,
      storageLeases: defaultStorageLeaseOptions,
      serviceNetwork: defaultServiceNetworkOptions,
      events: defaultEventOptions,
      kubeletClient: defaultKubeletClientOptions,
      deleteCollection: defaultDeleteCollectionOptions,
      flowControl: defaultFlowControlOptions,
      apiEnablement: defaultResourceConfig(),
    });
  });

  it('several servers: --endpoint-reconciler-type, --apiserver-count, --lease-reuse-duration-seconds, --external-hostname', () => {
    const ok = run(['--etcd-servers=http://e:1', '--endpoint-reconciler-type=none', '--external-hostname=api.example.com', '--lease-reuse-duration-seconds=30']);
    assert.equal(ok.kind, 'run');
    if (ok.kind === 'run') {
      assert.deepEqual(ok.options.endpointReconciler, { type: 'none', apiserverCount: 1 });
      assert.equal(ok.options.externalHostname, 'api.example.com');
      assert.deepEqual(ok.options.storageLeases, { reuseDurationSeconds: 30 });
    }
    const count = run(['--etcd-servers=http://e:1', '--endpoint-reconciler-type=master-count', '--apiserver-count=3']);
    assert.equal(count.kind, 'run');
    if (count.kind === 'run') assert.deepEqual(count.options.endpointReconciler, { type: 'master-count', apiserverCount: 3 });
    const refused: Array<[string, RegExp]> = [
      ['--endpoint-reconciler-type=magic', /Reconciler not implemented: magic/],
      ['--apiserver-count=0', /--apiserver-count should be a positive number, but value '0' provided/],
      ['--lease-reuse-duration-seconds=0', /--lease-reuse-duration-seconds should be greater than 0, but value '0' provided/],
      ['--lease-reuse-duration-seconds=1m', /invalid argument "1m" for "--lease-reuse-duration-seconds" flag/],
    ];
    for (const [flag, message] of refused) {
      const r = run(['--etcd-servers=http://e:1', flag]);
      assert.equal(r.kind, 'exit', flag);
      if (r.kind === 'exit') assert.match(r.stderr ?? '', message);
    }
  });

  it('--authorization-mode: a list of known modes, each once', () => {
    const ok = run(['--etcd-servers=http://e:1', '--authorization-mode=Node,RBAC']);
    assert.equal(ok.kind, 'run');
    if (ok.kind === 'run') assert.deepEqual(ok.options.authorization?.modes, ['Node', 'RBAC']);
    const unknown = run(['--etcd-servers=http://e:1', '--authorization-mode=RBAC,Magic']);
    assert.equal(unknown.kind, 'exit');
    if (unknown.kind === 'exit') assert.match(unknown.stderr ?? '', /authorization-mode "Magic" is not a valid mode/);
    const twice = run(['--etcd-servers=http://e:1', '--authorization-mode=RBAC,RBAC']);
    assert.equal(twice.kind, 'exit');
    const bare = run(['--etcd-servers=http://e:1', '--watch-cache', '--encryption-provider-config-automatic-reload', '--encryption-provider-config=/x', '--anonymous-auth']);
    assert.equal(bare.kind === 'run' && bare.options.watchCache && bare.options.authentication?.anonymous, true);
    assert.equal(bare.kind === 'run' && bare.options.encryption?.automaticReload, true, 'a bare bool flag whose default is false is true');
    const anonymousOff = run(['--etcd-servers=http://e:1', '--anonymous-auth=false']);
    assert.equal(anonymousOff.kind === 'run' && anonymousOff.options.authentication?.anonymous, false);
  });

  it('values in both --flag=value and --flag value forms, several etcd servers', () => {
    const r = run(['--etcd-servers', 'http://a:1,http://b:2', '--secure-port', '7443', '--etcd-prefix=/kube', '--etcd-compaction-interval=0', '--request-timeout=30s', '--min-request-timeout', '60', '-v', '4', '--bind-address=127.0.0.1']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.etcdServers, ['http://a:1', 'http://b:2']);
    assert.equal(r.options.securePort, 7443);
    assert.equal(r.options.etcdPrefix, '/kube');
    assert.equal(r.options.etcdCompactionIntervalMs, 0);
    assert.equal(r.options.requestTimeoutMs, 30_000);
    assert.equal(r.options.minRequestTimeoutSeconds, 60);
    assert.equal(r.options.verbosity, 4);
    assert.equal(r.options.bindAddress, '127.0.0.1');
  });

  it('--storage-media-type takes the three media types and refuses others', () => {
    for (const mt of ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']) {
      const r = run(['--etcd-servers=http://e:1', `--storage-media-type=${mt}`]);
      assert.equal(r.kind === 'run' && r.options.storageMediaType, mt);
    }
    const bad = run(['--etcd-servers=http://e:1', '--storage-media-type=text/plain']);
    assert.equal(bad.kind, 'exit');
    if (bad.kind === 'exit') {
      assert.equal(bad.code, 1);
      assert.equal(bad.stderr, 'Error: --storage-media-type "text/plain" invalid, allowed values: application/json, application/vnd.kubernetes.protobuf, application/yaml\n');
    }
  });

  it('--watch-cache, --watch-cache-sizes and --default-watch-cache-size as kube reads them', () => {
    const r = run(['--etcd-servers=http://e:1', '--watch-cache=false', '--watch-cache-sizes=pods#0,deployments.apps#1000', '--default-watch-cache-size=0']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.equal(r.options.watchCache, false);
    assert.deepEqual([...r.options.watchCacheSizes], [['pods', 0], ['deployments.apps', 1000]]);
    assert.equal(r.options.defaultWatchCacheSize, 0);
    const bare = run(['--etcd-servers=http://e:1', '--watch-cache']);
    assert.equal(bare.kind === 'run' && bare.options.watchCache, true);
    for (const [arg, msg] of [
      ['--watch-cache-sizes=pods', 'invalid value of watch cache size: pods'],
      ['--watch-cache-sizes=pods#x', 'invalid size of watch cache size: pods#x'],
      ['--watch-cache-sizes=pods#-1', 'watch cache size cannot be negative: pods#-1'],
      ['--watch-cache=maybe', 'invalid argument "maybe" for "--watch-cache" flag: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ] as const) {
      const bad = run(['--etcd-servers=http://e:1', arg]);
      assert.equal(bad.kind, 'exit');
      if (bad.kind === 'exit') assert.equal(bad.stderr, `Error: ${msg}\n`);
    }
  });

  it('refuses --secure-port 0 with a clear message', () => {
    const r = run(['--etcd-servers=http://x:1', '--secure-port=0']);
    assert.equal(r.kind, 'exit');
    if (r.kind !== 'exit') return;
    assert.equal(r.code, 1);
    assert.match(r.stderr ?? '', /--secure-port 0 is not allowed/);
  });

  it('refuses unknown flags, bad durations, missing etcd servers, and bad addresses', () => {
    for (const [args, msg] of [
      [['--etcd-servers=http://x:1', '--no-such-flag'], /Unknown argument/i],
      [['--etcd-servers=http://x:1', '--request-timeout=5'], /missing unit in duration/],
      [[], /--etcd-servers must be specified/],
      [['--etcd-servers=http://x:1', '--bind-address=nope'], /not a valid IP address/],
      [['--etcd-servers=http://x:1', '--tls-cert-file=a.crt'], /must be given together/],
      [['--etcd-servers=https://x:1,http://y:2'], /mix http:\/\/ and https:\/\//],
    ] as const) {
      const r = run([...args]);
      assert.equal(r.kind, 'exit', String(args));
      if (r.kind === 'exit') assert.match(r.stderr ?? '', msg);
    }
  });

  it('--version prints the version', () => {
    const r = run(['--version']);
    assert.deepEqual(r, { kind: 'exit', code: 0, stdout: 'Kubernetes v1.33.0+capstan\n' });
  });
});
