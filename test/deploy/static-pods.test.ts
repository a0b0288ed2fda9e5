/**
 * deploy/kubernetes: the static pods of three control-plane nodes, as kubeadm writes them. The real
 * kubectl accepts them against a running server (client and server dry runs); the etcd members
 * agree on their cluster; each API server's flags are accepted by Capstan's parser with the files
 * hack/gen-deploy-certs.ts writes for that node; probes are kubeadm's.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateDeployPki } from '../../hack/deploy-pki.js';
import { parseDeployCertArgs } from '../../hack/gen-deploy-certs.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { capstanFlagErrors, deployDir, exists, flagValue, hostPathOf, kubernetesDir, loadStaticPods, packageVersion, type Mount, type StaticPod } from './manifests.js';

const nodes = loadStaticPods();
const nodeIPs: Record<string, string> = { 'cp-1': '192.168.10.11', 'cp-2': '192.168.10.12', 'cp-3': '192.168.10.13' };
const fx = useServer();
let out = '';
let scratch = '';

/** The certificate script's command line for these nodes, as the README gives it. */
const certArgs = [
  ...Object.entries(nodeIPs).map(([n, ip]) => `--etcd-member=${n}=${ip}`),
  '--apiserver=cp-1=192.168.10.11',
  '--apiserver=cp-2=192.168.10.12',
  '--apiserver-ip=192.168.10.10',
  '--apiserver-name=capstan.example.com',
  '--server=https://capstan.example.com:6443',
];

/** Where the node's /etc/kubernetes and /var/log files are in this test. */
function hostFile(node: string, pod: StaticPod, p: string): string {
  const c = pod.spec.containers[0]!;
  const mounts: Mount[] = c.volumeMounts.map((m) => {
    const vol = pod.spec.volumes.find((v) => v.name === m.name);
    assert.ok(vol, `${pod.file}: volumeMount ${m.name} has no volume`);
    return { source: vol.hostPath.path, target: m.mountPath, readOnly: m.readOnly === true, named: false };
  });
  const hit = hostPathOf(mounts, p);
  assert.ok(hit, `${pod.file}: ${p} is not under any volume`);
  if (hit.path === '/etc/kubernetes/audit-policy.yaml') return join(deployDir, 'audit-policy.yaml');
  if (hit.path.startsWith('/etc/kubernetes/')) return join(out, node, hit.path.slice('/etc/kubernetes/'.length));
  if (hit.path.startsWith('/var/log/kubernetes/')) return join(scratch, node, hit.path.slice('/var/log/kubernetes/'.length));
  return hit.path;
}

function pod(node: string, name: string): StaticPod {
  const p = nodes.get(node)?.find((x) => x.metadata.name === name);
  assert.ok(p, `${node} has no ${name} manifest`);
  return p;
}

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'capstan-static-certs-'));
  scratch = await mkdtemp(join(tmpdir(), 'capstan-static-state-'));
  for (const n of Object.keys(nodeIPs)) await mkdir(join(scratch, n, 'audit'), { recursive: true });
  const { plan } = parseDeployCertArgs([out, ...certArgs]);
  await generateDeployPki(out, plan);
});
after(async () => {
  await rm(out, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

describe('static pods: kubectl', () => {
  it('kubectl apply --dry-run=client accepts every manifest', async () => {
    const r = await kubectl(fx.kubeconfigPath, ['apply', '--dry-run=client', '-R', '-f', kubernetesDir, '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['pod/capstan-apiserver', 'pod/etcd', 'pod/capstan-apiserver', 'pod/etcd', 'pod/etcd']);
  });

  it('kubectl apply --dry-run=server: the server validates every pod', async () => {
    const r = await kubectl(fx.kubeconfigPath, ['apply', '--dry-run=server', '-R', '-f', kubernetesDir, '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 5);
  });
});

describe('static pods: README', () => {
  it('gives the certificate script the same hosts as these manifests', async () => {
    const readme = await readFile(join(deployDir, '..', 'README.md'), 'utf8');
    const block = /^node dist\/hack\/gen-deploy-certs\.js (\S+)((?: \\\n[^\\\n]*)+)$/m.exec(readme);
    assert.ok(block, 'README has no gen-deploy-certs command for machines');
    const args = block[2]!.replace(/\\\n/g, ' ').trim().split(/\s+/);
    assert.deepEqual(parseDeployCertArgs(['x', ...args]).plan, parseDeployCertArgs(['x', ...certArgs]).plan);
  });
});

describe('static pods: layout', () => {
  it('three nodes run etcd, the first two an API server, all in kube-system on the host network', () => {
    assert.deepEqual([...nodes.keys()], ['cp-1', 'cp-2', 'cp-3']);
    for (const [node, pods] of nodes) {
      assert.deepEqual(pods.map((p) => p.metadata.name).sort(), node === 'cp-3' ? ['etcd'] : ['capstan-apiserver', 'etcd']);
      for (const p of pods) {
        assert.equal(p.metadata.namespace, 'kube-system');
        assert.equal(p.spec.hostNetwork, true);
        assert.equal(p.metadata.labels.tier, 'control-plane');
      }
    }
  });
});

describe('static pods: etcd', () => {
  const cluster = Object.entries(nodeIPs).map(([n, ip]) => `${n}=https://${ip}:2380`).join(',');
  for (const node of Object.keys(nodeIPs)) {
    it(`${node}: one member of the same cluster, TLS with client certificates, kubeadm's probes`, async () => {
      const p = pod(node, 'etcd');
      const c = p.spec.containers[0]!;
      const a = c.command ?? [];
      const ip = nodeIPs[node]!;
      assert.equal(c.image, 'registry.k8s.io/etcd:3.5.21-0');
      assert.equal(flagValue(a, 'name'), node);
      assert.equal(flagValue(a, 'initial-cluster'), cluster);
      assert.equal(flagValue(a, 'advertise-client-urls'), `https://${ip}:2379`);
      assert.equal(p.metadata.annotations?.['kubeadm.kubernetes.io/etcd.advertise-client-urls'], `https://${ip}:2379`);
      assert.equal(flagValue(a, 'client-cert-auth'), 'true');
      assert.equal(flagValue(a, 'peer-client-cert-auth'), 'true');
      for (const f of ['trusted-ca-file', 'cert-file', 'key-file', 'peer-trusted-ca-file', 'peer-cert-file', 'peer-key-file']) assert.ok(exists(hostFile(node, p, flagValue(a, f)!)), `--${f}`);
      const cert = new X509Certificate(await readFile(hostFile(node, p, flagValue(a, 'peer-cert-file')!)));
      assert.equal(cert.checkIP(ip), ip);
      assert.equal(cert.checkHost(node), node);
      assert.equal(flagValue(a, 'listen-metrics-urls'), 'http://127.0.0.1:2381');
      for (const [probe, path] of [[c.livenessProbe, '/livez'], [c.readinessProbe, '/readyz'], [c.startupProbe, '/readyz']] as const) {
        assert.deepEqual(probe?.httpGet, { host: '127.0.0.1', path, port: 2381, scheme: 'HTTP' });
      }
    });
  }
});

describe('static pods: API servers', () => {
  const members = Object.values(nodeIPs).map((ip) => `https://${ip}:2379`).join(',');
  for (const node of ['cp-1', 'cp-2']) {
    it(`${node}: the image, every etcd member, kubeadm's probes on its advertise address`, () => {
      const p = pod(node, 'capstan-apiserver');
      const c = p.spec.containers[0]!;
      const a = c.args ?? [];
      const ip = nodeIPs[node]!;
      assert.equal(c.image, `capstan-apiserver:${packageVersion}`);
      assert.equal(c.command, undefined, 'the image entrypoint runs the server');
      assert.equal(flagValue(a, 'advertise-address'), ip);
      assert.equal(p.metadata.annotations?.['kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint'], `${ip}:6443`);
      assert.equal(flagValue(a, 'etcd-servers'), members);
      const port = Number(flagValue(a, 'secure-port'));
      assert.deepEqual(c.livenessProbe, { failureThreshold: 8, httpGet: { host: ip, path: '/livez', port, scheme: 'HTTPS' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 });
      assert.deepEqual(c.readinessProbe, { failureThreshold: 3, httpGet: { host: ip, path: '/readyz', port, scheme: 'HTTPS' }, periodSeconds: 1, timeoutSeconds: 15 });
      assert.deepEqual(c.startupProbe, { failureThreshold: 24, httpGet: { host: ip, path: '/livez', port, scheme: 'HTTPS' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15 });
    });

    it(`${node}: every file its flags name exists, and Capstan's flag parser accepts them`, async () => {
      const p = pod(node, 'capstan-apiserver');
      const a = p.spec.containers[0]!.args ?? [];
      for (const arg of a) {
        const value = arg.slice(arg.indexOf('=') + 1);
        if (!value.startsWith('/')) continue;
        const file = hostFile(node, p, value);
        if (arg.startsWith('--audit-log-path=')) assert.ok(exists(dirname(file)), arg);
        else assert.ok(exists(file), `${arg}: ${file} is neither in the repository nor written by the certificate script`);
      }
      assert.equal(capstanFlagErrors(a, (v) => hostFile(node, p, v)), undefined);
      const cert = new X509Certificate(await readFile(hostFile(node, p, flagValue(a, 'tls-cert-file')!)));
      for (const ip of [nodeIPs[node]!, '192.168.10.10', '10.0.0.1']) assert.equal(cert.checkIP(ip), ip);
      assert.equal(cert.checkHost(flagValue(a, 'external-hostname')!), 'capstan.example.com');
    });
  }
});
