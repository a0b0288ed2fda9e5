import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { composePlan, generateDeployPki } from './deploy-pki.js';
import { parseDeployCertArgs } from './gen-deploy-certs.js';

const serverAuth = '1.3.6.1.5.5.7.3.1';
const clientAuth = '1.3.6.1.5.5.7.3.2';

describe('gen-deploy-certs: command line', () => {
  it('defaults to the hosts of deploy/compose', () => {
    assert.deepEqual(parseDeployCertArgs(['out']), { out: 'out', plan: composePlan });
  });

  it('takes hosts as NAME=IP, repeated or comma separated, and the load balancer names', () => {
    const { plan } = parseDeployCertArgs(['o', '--etcd-member', 'cp-1=192.0.2.1,cp-2=192.0.2.2', '--etcd-member=cp-3=192.0.2.3', '--apiserver=cp-1=192.0.2.1', '--apiserver-name', 'lb.example.com', '--apiserver-ip=192.0.2.9', '--server=https://lb.example.com:6443', '--days=30']);
    assert.deepEqual(plan.etcdMembers.map((h) => `${h.name}=${h.ip}`), ['cp-1=192.0.2.1', 'cp-2=192.0.2.2', 'cp-3=192.0.2.3']);
    assert.deepEqual(plan.apiServers, [{ name: 'cp-1', ip: '192.0.2.1' }]);
    assert.deepEqual([plan.apiServerNames, plan.apiServerIPs, plan.server, plan.validityDays], [['lb.example.com'], ['192.0.2.9'], 'https://lb.example.com:6443', 30]);
  });

  it('refuses what it cannot honour', async () => {
    assert.throws(() => parseDeployCertArgs([]), /usage/);
    assert.throws(() => parseDeployCertArgs(['o', '--nodes=3']), /unknown flag --nodes/);
    assert.throws(() => parseDeployCertArgs(['o', '--apiserver']), /--apiserver needs a value/);
    assert.throws(() => parseDeployCertArgs(['o', '--apiserver=cp-1']), /want NAME=IP/);
    assert.throws(() => parseDeployCertArgs(['o', '--days=0']), /positive whole number/);
    const bad = (args: string[]) => generateDeployPki('/nonexistent/never-written', parseDeployCertArgs(['o', ...args]).plan);
    await assert.rejects(bad(['--apiserver=cp-1=not-an-ip']), /not an IP address/);
    await assert.rejects(bad(['--etcd-member=ca=192.0.2.1']), /other than "ca"/);
    await assert.rejects(bad(['--etcd-member=a=192.0.2.1,a=192.0.2.2']), /repeat/);
  });
});

describe('gen-deploy-certs: files', () => {
  it('lays out each host as kubeadm does, keys 0600, and keeps the CAs on a rerun', async () => {
    const out = await mkdtemp(join(tmpdir(), 'capstan-deploy-pki-'));
    try {
      const { plan } = parseDeployCertArgs([out, '--etcd-member=cp-1=192.0.2.1,cp-2=192.0.2.2', '--apiserver=cp-1=192.0.2.1']);
      const written = await generateDeployPki(out, plan);
      const rel = written.map((p) => p.slice(out.length + 1)).sort();
      assert.deepEqual(rel.filter((p) => p.startsWith('cp-1/')), [
        'cp-1/pki/apiserver-etcd-client.crt', 'cp-1/pki/apiserver-etcd-client.key', 'cp-1/pki/apiserver.crt', 'cp-1/pki/apiserver.key', 'cp-1/pki/ca.crt',
        'cp-1/pki/etcd/ca.crt', 'cp-1/pki/etcd/healthcheck-client.crt', 'cp-1/pki/etcd/healthcheck-client.key', 'cp-1/pki/etcd/peer.crt', 'cp-1/pki/etcd/peer.key',
        'cp-1/pki/etcd/server.crt', 'cp-1/pki/etcd/server.key', 'cp-1/pki/sa.key', 'cp-1/pki/sa.pub',
      ]);
      assert.ok(rel.includes('admin.conf') && !rel.some((p) => p.startsWith('cp-2/pki/apiserver')), 'cp-2 is only an etcd member');
      for (const p of written) assert.equal((await stat(p)).mode & 0o777, p.endsWith('.key') || p.endsWith('.conf') ? 0o600 : 0o644, p);
      assert.equal((await stat(join(out, 'ca', 'ca.key'))).mode & 0o777, 0o600);

      const ca = new X509Certificate(await readFile(join(out, 'cp-1/pki/ca.crt')));
      const etcdCA = new X509Certificate(await readFile(join(out, 'cp-1/pki/etcd/ca.crt')));
      assert.notEqual(ca.fingerprint256, etcdCA.fingerprint256, 'etcd has a CA of its own');
      const peer = new X509Certificate(await readFile(join(out, 'cp-2/pki/etcd/peer.crt')));
      assert.deepEqual([...(peer.keyUsage ?? [])].sort(), [serverAuth, clientAuth].sort());
      assert.ok(peer.verify(etcdCA.publicKey));
      assert.equal(peer.checkIP('192.0.2.2'), '192.0.2.2');
      const etcdClient = new X509Certificate(await readFile(join(out, 'cp-1/pki/apiserver-etcd-client.crt')));
      assert.deepEqual(etcdClient.keyUsage, [clientAuth]);
      assert.match(etcdClient.subject, /CN=kube-apiserver-etcd-client/);

      // admin.conf: kubectl's credentials, a system:masters client certificate from the cluster CA.
      const conf = parse(await readFile(join(out, 'admin.conf'), 'utf8'));
      assert.equal(conf.clusters[0].cluster.server, 'https://127.0.0.1:6443');
      assert.equal(Buffer.from(conf.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), ca.toString());
      const admin = new X509Certificate(Buffer.from(conf.users[0].user['client-certificate-data'], 'base64'));
      assert.match(admin.subject, /O=system:masters/);
      assert.match(admin.subject, /CN=kubernetes-admin/);
      assert.ok(admin.verify(ca.publicKey));

      const saBefore = await readFile(join(out, 'cp-1/pki/sa.key'), 'utf8');
      const leafBefore = await readFile(join(out, 'cp-1/pki/apiserver.crt'), 'utf8');
      await generateDeployPki(out, plan);
      assert.equal(await readFile(join(out, 'cp-1/pki/ca.crt'), 'utf8'), ca.toString());
      assert.equal(await readFile(join(out, 'cp-1/pki/sa.key'), 'utf8'), saBefore, 'tokens already issued stay valid');
      assert.notEqual(await readFile(join(out, 'cp-1/pki/apiserver.crt'), 'utf8'), leafBefore, 'leaves are re-issued');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
