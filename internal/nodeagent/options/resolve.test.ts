import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { NodeAgentConfig } from '../interface.js';
import { parseNodeAgentCommand, type NodeAgentCommand } from './resolve.js';

const kc = '--kubeconfig=/tmp/kubeconfig';

function run(cmd: NodeAgentCommand): NodeAgentConfig {
  assert.equal(cmd.kind, 'run', cmd.kind === 'exit' ? cmd.stderr : '');
  return (cmd as Extract<NodeAgentCommand, { kind: 'run' }>).config;
}

function refusal(cmd: NodeAgentCommand): string {
  assert.equal(cmd.kind, 'exit');
  const exit = cmd as Extract<NodeAgentCommand, { kind: 'exit' }>;
  assert.equal(exit.code, 1);
  return exit.stderr ?? '';
}

describe('node agent flags and KubeletConfiguration', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-na-options-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses kubelet legacy flag defaults without --config', async () => {
    const c = run(await parseNodeAgentCommand([kc]));
    assert.equal(c.readOnlyPort, 10255);
    assert.equal(c.authorization.mode, 'AlwaysAllow');
    assert.equal(c.authentication.anonymous.enabled, true);
    assert.equal(c.authentication.webhook.enabled, false);
    assert.equal(c.port, 10250);
    assert.equal(c.syncFrequencyMs, 60_000);
    assert.equal(c.containerRuntimeEndpoint, 'unix:///run/containerd/containerd.sock');
  });

  it('reads kubelet flags: durations, quantities, eviction maps, taints, labels, headers, lists', async () => {
    const c = run(
      await parseNodeAgentCommand([
        kc,
        '--sync-frequency=1m30s',
        '--container-log-max-size',
        '20Mi',
        '--eviction-hard=memory.available<200Mi,nodefs.available<10%',
        '--eviction-soft=memory.available<1Gi',
        '--eviction-soft-grace-period=memory.available=1m30s',
        '--register-with-taints=dedicated=gpu:NoSchedule,spot:PreferNoSchedule',
        '--node-labels=node.kubernetes.io/pool=a,example.com/team=x',
        '--node-labels=kubernetes.io/arch=amd64',
        '--manifest-url-header=a:hello,b:again',
        '--manifest-url-header',
        'b:beautiful',
        '--cluster-dns=10.0.0.10',
        '--cluster-dns=10.0.0.11',
        '--serialize-image-pulls=false',
        '--anonymous-auth=false',
        '--authorization-mode=Webhook',
        '--node_ip=10.1.2.3',
        '-v',
        '4',
      ]),
    );
    assert.equal(c.syncFrequencyMs, 90_000);
    assert.equal(c.containerLogMaxSize, 20 * 1024 * 1024);
    assert.deepEqual(c.evictionHard, [
      { signal: 'memory.available', quantity: 200 * 1024 * 1024 },
      { signal: 'nodefs.available', percentage: 0.1 },
    ]);
    assert.deepEqual(c.evictionSoft, [{ signal: 'memory.available', quantity: 1024 ** 3, gracePeriodMs: 90_000 }]);
    assert.deepEqual(c.registerWithTaints, [
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      { key: 'spot', effect: 'PreferNoSchedule' },
    ]);
    assert.deepEqual(c.nodeLabels, { 'node.kubernetes.io/pool': 'a', 'example.com/team': 'x', 'kubernetes.io/arch': 'amd64' });
    assert.deepEqual(c.staticPodURLHeader, { a: ['hello'], b: ['again', 'beautiful'] });
    assert.deepEqual(c.clusterDNS, ['10.0.0.10', '10.0.0.11']);
    assert.equal(c.serializeImagePulls, false);
    assert.equal(c.authentication.anonymous.enabled, false);
    assert.equal(c.authorization.mode, 'Webhook');
    assert.deepEqual(c.nodeIPs, ['10.1.2.3']);
  });

  it('takes v1beta1 defaults with --config, file values over them, flags over the file', async () => {
    const file = join(dir, 'kubelet.yaml');
    await writeFile(
      file,
      [
        'apiVersion: kubelet.config.k8s.io/v1beta1',
        'kind: KubeletConfiguration',
        'maxPods: 0', // zero in a file means the default (110)
        'syncFrequency: 0s',
        'readOnlyPort: 0',
        'podsPerCore: 4',
        'staticPodPath: manifests',
        'tlsCertFile: /abs/tls.crt',
        'tlsPrivateKeyFile: tls.key',
        'evictionHard:',
        '  memory.available: 300Mi',
        'authentication:',
        '  x509:',
        '    clientCAFile: /ca.crt',
        '  webhook:',
        '    cacheTTL: 1m',
        'registerWithTaints:',
        '- key: a',
        '  effect: NoExecute',
        'cpuManagerPolicy: none',
        'cgroupsPerQOS: true',
        'podLogsDir: /srv/pod-logs',
        '',
      ].join('\n'),
    );
    const c = run(await parseNodeAgentCommand([kc, `--config=${file}`, '--pods-per-core=2', '--max-pods=0']));
    assert.equal(c.readOnlyPort, 0);
    assert.equal(c.authorization.mode, 'Webhook');
    assert.equal(c.authentication.webhook.enabled, true);
    assert.equal(c.authentication.webhook.cacheTTLMs, 60_000);
    assert.equal(c.authentication.x509.clientCAFile, '/ca.crt');
    assert.equal(c.syncFrequencyMs, 60_000);
    assert.equal(c.podsPerCore, 2, 'the flag wins');
    assert.equal(c.maxPods, 0, 'a flag zero is taken as given');
    assert.equal(c.staticPodPath, join(dir, 'manifests'), 'relative paths are relative to the file');
    assert.equal(c.tlsCertFile, '/abs/tls.crt');
    assert.equal(c.podLogsDir, '/srv/pod-logs');
    assert.equal(c.tlsPrivateKeyFile, join(dir, 'tls.key'));
    assert.deepEqual(c.evictionHard, [{ signal: 'memory.available', quantity: 300 * 1024 * 1024 }]);
    assert.deepEqual(c.registerWithTaints, [{ key: 'a', effect: 'NoExecute' }]);
    const fileOnly = run(await parseNodeAgentCommand([kc, `--config=${file}`]));
    assert.equal(fileOnly.maxPods, 110);
    assert.equal(fileOnly.podsPerCore, 4);
  });

  it('merges --config-dir drop-ins in lexical order over the file, flags over both', async () => {
    const file = join(dir, 'base.json');
    await writeFile(file, JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', maxPods: 50, clusterDomain: 'base.local', authentication: { anonymous: { enabled: true } } }));
    const dropins = join(dir, 'kubelet.conf.d');
    await mkdir(join(dropins, '20-sub'), { recursive: true });
    const head = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
    await writeFile(join(dropins, '10-pods.conf'), `${head}maxPods: 60\nclusterDomain: ten.local\n`);
    await writeFile(join(dropins, '20-sub', 'a.conf'), `${head}maxPods: 70\n`);
    await writeFile(join(dropins, '30-auth.conf'), `${head}authentication:\n  webhook:\n    enabled: false\n`);
    await writeFile(join(dropins, '99-ignored.yaml'), 'not: a drop-in\n');
    const c = run(await parseNodeAgentCommand([kc, `--config=${file}`, `--config-dir=${dropins}`, '--cluster-domain=flag.local']));
    assert.equal(c.maxPods, 70);
    assert.equal(c.clusterDomain, 'flag.local');
    assert.equal(c.authentication.anonymous.enabled, true, 'objects merge field by field');
    assert.equal(c.authentication.webhook.enabled, false);
    // Without --config the legacy flag defaults are the base, and a drop-in's zero is taken as given.
    const zero = join(dir, 'zero.d');
    await mkdir(zero);
    await writeFile(join(zero, '10.conf'), `${head}maxPods: 0\n`);
    const d = run(await parseNodeAgentCommand([kc, `--config-dir=${zero}`]));
    assert.equal(d.maxPods, 0);
    assert.equal(d.readOnlyPort, 10255);
    assert.equal(d.authorization.mode, 'AlwaysAllow');
  });

  it('refuses unknown fields, wrong kinds and wrong types with the decoder\'s messages', async () => {
    const write = async (name: string, text: string): Promise<string> => {
      const p = join(dir, name);
      await writeFile(p, text);
      return p;
    };
    const unknown = await write('unknown.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: 3\nauthentication:\n  x509:\n    caFile: x\n');
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${unknown}`])), /failed to decode: strict decoding error: unknown field "maxPod", unknown field "authentication.x509.caFile"/);
    const kind = await write('kind.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeProxyConfiguration\n');
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${kind}`])), /no kind "KubeProxyConfiguration" is registered for version "kubelet.config.k8s.io\/v1beta1"/);
    const version = await write('version.yaml', 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n');
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${version}`])), /no kind "KubeletConfiguration" is registered for version "kubelet.config.k8s.io\/v1"/);
    const type = await write('type.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: "ten"\n');
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${type}`])), /json: cannot unmarshal string into Go struct field KubeletConfiguration.maxPods of type int32/);
    const dup = await write('dup.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 1\nmaxPods: 2\n');
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${dup}`])), /strict decoding error/);
    const unsupported = await write('unsupported.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncpuManagerPolicy: static\n');
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${unsupported}`])), /KubeletConfiguration field cpuManagerPolicy \("static"\) is not supported: the node agent has no CPU, memory or topology manager/);
    assert.match(refusal(await parseNodeAgentCommand([kc, `--config=${join(dir, 'missing.yaml')}`])), /failed to load Kubelet config file .*missing.yaml/);
  });

  it('refuses unknown flags, kubelet flags it cannot honour, and bad values', async () => {
    assert.match(refusal(await parseNodeAgentCommand([kc, '--no-such-flag'])), /failed to parse kubelet flag: unknown flag: --no-such-flag/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--cloud-provider=aws'])), /the kubelet flag --cloud-provider is not supported by the node agent: the node agent has no cloud provider integration/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--max-pods=x'])), /invalid argument "x" for "--max-pods" flag: strconv.ParseInt: parsing "x": invalid syntax/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--sync-frequency=10'])), /invalid argument "10" for "--sync-frequency" flag: time: missing unit in duration "10"/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--eviction-hard=memory.available>1Gi'])), /"--eviction-hard" flag: malformed pair/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--eviction-hard=foo.available<1Gi'])), /unsupported eviction signal foo.available/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--eviction-soft=memory.available<1Gi'])), /threshold for memory.available does not have a grace period/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--register-with-taints=a=b:Sometimes'])), /invalid taint effect: Sometimes, unsupported taint effect/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--node-labels=kubernetes.io/role=master'])), /unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: \[kubernetes.io\/role\]\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix \(kubelet.kubernetes.io, node.kubernetes.io\)/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--image-gc-low-threshold=90'])), /imageGCLowThresholdPercent \(--image-gc-low-threshold\) 90 must be less than imageGCHighThresholdPercent \(--image-gc-high-threshold\) 85/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--port=70000'])), /port \(--port\) 70000 must be between 1 and 65535, inclusive/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--container-runtime-endpoint=tcp://1.2.3.4:1'])), /only unix:\/\/ endpoints are supported/);
    assert.match(refusal(await parseNodeAgentCommand([])), /--kubeconfig is required: standalone mode/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--nodes=3'])), /--nodes greater than 1 requires --runtime=simulated/);
    assert.match(refusal(await parseNodeAgentCommand([kc, 'extra'])), /unknown command "extra"/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--node-ip=1.2.3.4,5.6.7.8'])), /must contain one IPv4 and one IPv6 address/);
  });

  it('prints help and version', async () => {
    const help = await parseNodeAgentCommand(['--help']);
    assert.equal(help.kind, 'exit');
    assert.match((help as { stdout: string }).stdout, /--container-runtime-endpoint string\s+The endpoint of remote runtime service/);
    assert.match((help as { stdout: string }).stdout, /--read-only-port int32\s+The read-only port .* \(default 10255\)/);
    const version = await parseNodeAgentCommand(['--version']);
    assert.match((version as { stdout: string }).stdout, /^Kubernetes v1\.33\.\d+/);
  });

  it('runs simulated nodes with --runtime=simulated --nodes', async () => {
    const c = run(await parseNodeAgentCommand([kc, '--runtime=simulated', '--nodes=20']));
    assert.equal(c.runtime, 'simulated');
    assert.equal(c.simulatedNodes, 20);
    const rules = run(await parseNodeAgentCommand([kc, '--runtime=simulated', '--simulation-rules=/etc/rules.yaml', '--simulated-pod-watch=per-node']));
    assert.equal(rules.simulationRulesFile, '/etc/rules.yaml');
    assert.equal(rules.simulatedPodWatch, 'per-node');
    assert.match(refusal(await parseNodeAgentCommand([kc, '--simulation-rules=/etc/rules.yaml'])), /--simulation-rules applies to simulated nodes only: it requires --runtime=simulated/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--runtime=simulated', '--simulated-pod-watch=all'])), /invalid argument "all" for "--simulated-pod-watch" flag/);
    assert.match(refusal(await parseNodeAgentCommand([kc, '--runtime=fake'])), /invalid argument "fake" for "--runtime" flag: must be remote or simulated/);
  });
});
