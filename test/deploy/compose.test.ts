/**
 * deploy/compose/compose.yaml, parsed: the services and their dependencies agree, every file a
 * flag names is mounted from the repository or from what hack/gen-deploy-certs.ts writes, and
 * Capstan's own flag parser accepts each API server's command line with those real files.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { composePlan, generateDeployPki } from '../../hack/deploy-pki.js';
import { freePort } from '../../hack/local-etcd.js';
import { loadPolicyFile } from '../../internal/audit/policy/load.js';
import { useServer } from '../support/server.js';
import { capstanFlagErrors, composeFile, composeMounts, exists, flagValue, hostPathOf, loadCompose, packageVersion, repoRoot, type ComposeService } from './manifests.js';

const compose = loadCompose();
const services = compose.services;
const etcdNames = ['etcd-1', 'etcd-2', 'etcd-3'];
const apiNames = ['apiserver-1', 'apiserver-2'];
const certsDir = join(dirname(composeFile), 'certs');
const auditDir = join(dirname(composeFile), 'audit');
let out = '';
let scratch = '';
const fx = useServer();

/** The host file behind a container path of svc: the generated certificates stand in for ./certs. */
function hostFile(svc: ComposeService, p: string): string {
  const hit = hostPathOf(composeMounts(svc), p);
  assert.ok(hit, `${p} is not under any mount of the service`);
  assert.equal(hit.mount.named, false, `${p} is in a named volume`);
  if (hit.path.startsWith(`${certsDir}/`)) return join(out, hit.path.slice(certsDir.length + 1));
  if (hit.path.startsWith(`${auditDir}/`)) return join(scratch, hit.path.slice(auditDir.length + 1));
  return hit.path;
}

function ipOf(name: string): string {
  const ip = services[name]?.networks?.capstan?.ipv4_address;
  assert.ok(ip, `${name} has no fixed address on the capstan network`);
  return ip;
}

function args(name: string): string[] {
  return services[name]!.command;
}

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'capstan-compose-certs-'));
  scratch = await mkdtemp(join(tmpdir(), 'capstan-compose-state-'));
  // The audit folders exist because the README's steps create them (docker would make them root's).
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const mkdirs = /^mkdir -p (deploy\/compose\/audit\/.*)$/m.exec(readme)?.[1]?.split(/\s+/) ?? [];
  for (const d of mkdirs) await mkdir(join(scratch, d.slice('deploy/compose/audit/'.length)), { recursive: true });
  await generateDeployPki(out, composePlan);
});
after(async () => {
  await rm(out, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

describe('compose: services', () => {
  it('are three etcd members, two API servers and the load balancer, on fixed addresses in the network', () => {
    assert.deepEqual(Object.keys(services).sort(), [...apiNames, 'capstan', ...etcdNames].sort());
    const subnet = compose.networks.capstan!.ipam.config[0]!.subnet;
    assert.equal(subnet, '172.28.0.0/24');
    const ips = Object.keys(services).map(ipOf);
    assert.equal(new Set(ips).size, ips.length, 'addresses repeat');
    for (const ip of ips) assert.match(ip, /^172\.28\.0\.\d+$/);
  });

  it('depend on services that exist: API servers wait for every etcd member to be healthy', () => {
    for (const [name, svc] of Object.entries(services)) for (const dep of Object.keys(svc.depends_on ?? {})) assert.ok(services[dep], `${name} depends on missing ${dep}`);
    for (const a of apiNames) {
      const deps = services[a]!.depends_on ?? {};
      assert.deepEqual(Object.keys(deps).sort(), etcdNames);
      for (const e of etcdNames) assert.equal(deps[e]!.condition, 'service_healthy');
    }
    assert.deepEqual(Object.keys(services.capstan!.depends_on ?? {}).sort(), apiNames);
  });

  it('mount only what exists: repository files, the certificate script\'s output, the audit folders the README creates', () => {
    for (const [name, svc] of Object.entries(services)) {
      for (const m of composeMounts(svc)) {
        if (m.named) assert.ok(m.source in compose.volumes, `${name}: volume ${m.source} is not declared`);
        else assert.ok(exists(hostFile(svc, m.target)), `${name}: ${m.source} does not exist`);
      }
    }
  });

  it('match the hosts the certificate script issues for by default', () => {
    assert.deepEqual(composePlan.etcdMembers.map((h) => [h.name, h.ip]), etcdNames.map((n) => [n, ipOf(n)]));
    assert.deepEqual(composePlan.apiServers.map((h) => [h.name, h.ip]), apiNames.map((n) => [n, ipOf(n)]));
    assert.deepEqual(composePlan.apiServerIPs, [ipOf('capstan')]);
    assert.deepEqual(composePlan.apiServerNames, ['capstan']);
    assert.ok(services.capstan!.ports?.includes(`127.0.0.1:${new URL(composePlan.server).port}:6443`), 'admin.conf points at the published port');
  });
});

describe('compose: etcd members', () => {
  const cluster = etcdNames.map((n) => `${n}=https://${ipOf(n)}:2380`).join(',');
  for (const name of etcdNames) {
    it(`${name}: kube 1.33's etcd, TLS for clients and peers with client certificates, its own data volume`, async () => {
      const svc = services[name]!;
      const a = args(name);
      assert.equal(svc.image, 'registry.k8s.io/etcd:3.5.21-0');
      assert.equal(flagValue(a, 'name'), name);
      assert.equal(flagValue(a, 'client-cert-auth'), 'true');
      assert.equal(flagValue(a, 'peer-client-cert-auth'), 'true');
      assert.equal(flagValue(a, 'advertise-client-urls'), `https://${ipOf(name)}:2379`);
      assert.equal(flagValue(a, 'initial-advertise-peer-urls'), `https://${ipOf(name)}:2380`);
      assert.equal(flagValue(a, 'initial-cluster'), cluster);
      for (const f of ['listen-client-urls', 'listen-peer-urls']) assert.match(flagValue(a, f) ?? '', /^https:\/\//, f);
      const data = composeMounts(svc).find((m) => m.target === flagValue(a, 'data-dir'));
      assert.ok(data?.named && data.source in compose.volumes, 'the data dir is a declared named volume');
      assert.ok(composeMounts(svc).filter((m) => !m.named).every((m) => m.readOnly), 'certificates are mounted read-only');
      for (const f of ['trusted-ca-file', 'cert-file', 'key-file', 'peer-trusted-ca-file', 'peer-cert-file', 'peer-key-file']) {
        const file = hostFile(svc, flagValue(a, f) ?? '');
        assert.ok(exists(file), `--${f}: ${file} is not written by the certificate script`);
      }
      // The server certificate names the member as its peers and the API servers reach it.
      const cert = new X509Certificate(await readFile(hostFile(svc, flagValue(a, 'cert-file')!)));
      assert.equal(cert.checkIP(ipOf(name)), ipOf(name));
      assert.equal(cert.checkHost(name), name);
      assert.ok(cert.verify(new X509Certificate(await readFile(hostFile(svc, flagValue(a, 'trusted-ca-file')!))).publicKey));
      // The health check presents a client certificate the member trusts.
      const test = svc.healthcheck?.test ?? [];
      assert.equal(test[0], 'CMD');
      for (const f of ['cacert', 'cert', 'key']) assert.ok(exists(hostFile(svc, flagValue(test, f) ?? '')), `healthcheck --${f}`);
    });
  }
});

describe('compose: API servers', () => {
  const members = etcdNames.map((n) => flagValue(args(n), 'advertise-client-urls')).join(',');
  for (const name of apiNames) {
    it(`${name}: the image, every etcd member over TLS, its own advertise address`, () => {
      const svc = services[name]!;
      const a = args(name);
      assert.equal(svc.image, `capstan-apiserver:\${CAPSTAN_VERSION:-${packageVersion}}`);
      assert.equal(flagValue(a, 'advertise-address'), ipOf(name));
      assert.equal(flagValue(a, 'etcd-servers'), members);
      assert.equal(flagValue(a, 'storage-backend'), 'etcd3');
      assert.equal(flagValue(a, 'endpoint-reconciler-type'), 'lease');
      assert.equal(flagValue(a, 'authorization-mode'), 'Node,RBAC');
      assert.match(svc.user ?? '', /^\$\{CAPSTAN_USER:\?/);
      for (const m of composeMounts(svc)) if (m.target.startsWith('/etc/')) assert.ok(m.readOnly, `${m.target} is read-only`);
    });

    it(`${name}: every file its flags name exists, and Capstan's flag parser accepts the command line`, async () => {
      const svc = services[name]!;
      const a = args(name);
      for (const arg of a) {
        const value = arg.slice(arg.indexOf('=') + 1);
        if (!value.startsWith('/')) continue;
        const file = hostFile(svc, value);
        // The audit log is the one file the server creates.
        if (arg.startsWith('--audit-log-path=')) assert.ok(exists(dirname(file)), `${arg}: no directory`);
        else assert.ok(exists(file), `${arg}: ${file} is neither in the repository nor written by the certificate script`);
      }
      assert.equal(capstanFlagErrors(a, (p) => hostFile(svc, p)), undefined);
      await loadPolicyFile(hostFile(svc, flagValue(a, 'audit-policy-file')!));
    });

    it(`${name}: its serving certificate names the service IP, kubernetes.default.svc, itself and the load balancer`, async () => {
      const svc = services[name]!;
      const cert = new X509Certificate(await readFile(hostFile(svc, flagValue(args(name), 'tls-cert-file')!)));
      for (const ip of ['10.0.0.1', ipOf(name), ipOf('capstan'), '127.0.0.1']) assert.equal(cert.checkIP(ip), ip);
      for (const dns of ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', 'capstan', 'localhost']) assert.equal(cert.checkHost(dns), dns);
      const ca = new X509Certificate(await readFile(hostFile(svc, flagValue(args(name), 'client-ca-file')!)));
      assert.ok(cert.verify(ca.publicKey), 'signed by the cluster CA that admin.conf trusts');
      const etcdClient = new X509Certificate(await readFile(hostFile(svc, flagValue(args(name), 'etcd-certfile')!)));
      const etcdCA = new X509Certificate(await readFile(hostFile(svc, flagValue(args(name), 'etcd-cafile')!)));
      assert.ok(etcdClient.verify(etcdCA.publicKey), 'the etcd client certificate is signed by the etcd CA');
    });
  }
});

describe('compose: API server health check', () => {
  /** Runs the service's health check command with the port and CA moved to the test server's. */
  function runCheck(port: number, caFile: string): Promise<number> {
    const test = services['apiserver-1']!.healthcheck!.test;
    assert.deepEqual(test.slice(0, 3), ['CMD', 'node', '-e']);
    const script = test[3]!.replace('port: 6443', `port: ${port}`).replace("'/etc/kubernetes/pki/ca.crt'", JSON.stringify(caFile));
    assert.notEqual(script, test[3]);
    return new Promise((resolve) => execFile(process.execPath, ['-e', script], { timeout: 10_000 }, (err) => resolve(err ? Number((err as { code?: number }).code ?? -1) : 0)));
  }

  it('passes against a ready server and fails when nothing answers', async () => {
    const caFile = join(scratch, 'serving-ca.crt');
    await writeFile(caFile, fx.ca);
    assert.equal(await runCheck(fx.port, caFile), 0);
    assert.equal(await runCheck(await freePort(), caFile), 1);
  });
});

describe('compose: load balancer', () => {
  it('passes TLS through to both API servers and checks their /readyz', async () => {
    const svc = services.capstan!;
    const cfgPath = hostFile(svc, '/usr/local/etc/haproxy/haproxy.cfg');
    const cfg = await readFile(cfgPath, 'utf8');
    assert.match(cfg, /^\s*mode tcp$/m);
    assert.match(cfg, /^\s*option httpchk GET \/readyz$/m);
    const servers = [...cfg.matchAll(/^\s*server (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(servers, apiNames.map((n) => [n, `${ipOf(n)}:${flagValue(args(n), 'secure-port')}`]));
  });
});
