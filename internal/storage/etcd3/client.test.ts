import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Http2Session } from 'node:http2';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../../server/pki.js';
import { EtcdClientFactory, etcdFlowControlWindowBytes } from './client.js';

type Hosts = { pool: { hosts: Array<{ channelCredentials: unknown }> } };
const credentialsOf = (c: unknown) => (c as Hosts).pool.hosts.map((h) => h.channelCredentials);

describe('etcd client factory', () => {
  it('reads the TLS files, refuses a missing file or a mismatched pair, and hands new files to open clients', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-etcd-client-'));
    try {
      const ca = await createCertificateAuthority('ca');
      const one = await issueCertificate(ca, { commonName: 'a', usage: 'client' });
      const two = await issueCertificate(ca, { commonName: 'b', usage: 'client' });
      const files = { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'c.crt'), keyFile: join(dir, 'c.key') };
      await writeFile(files.caFile, ca.certPem);
      await writeFile(files.certFile, one.cert);
      await writeFile(files.keyFile, one.key);
      await assert.rejects(EtcdClientFactory.load({ ...files, caFile: join(dir, 'none') }), /^Error: --etcd-cafile: ENOENT/);
      await writeFile(join(dir, 'other.key'), two.key);
      await assert.rejects(EtcdClientFactory.load({ ...files, keyFile: join(dir, 'other.key') }), /etcd client TLS files .*: .*(key values mismatch|KEY_VALUES_MISMATCH)/i);

      const factory = await EtcdClientFactory.load(files);
      const secure = factory.client(['https://127.0.0.1:1', 'https://127.0.0.1:2']);
      const plain = factory.client(['http://127.0.0.1:1']);
      const before = credentialsOf(secure);
      assert.equal(new Set(before).size, 1);
      assert.equal(await factory.reload(), false, 'unchanged files: nothing to do');
      await writeFile(files.certFile, two.cert);
      await writeFile(files.keyFile, two.key);
      assert.equal(await factory.reload(), true);
      const after = credentialsOf(secure);
      assert.notEqual(after[0], before[0]);
      assert.equal(new Set(after).size, 1);
      assert.notEqual(credentialsOf(plain)[0], after[0], 'http:// members stay in the clear');
      // A half-written pair is refused and the clients keep the last good credentials.
      await writeFile(files.keyFile, one.key);
      await assert.rejects(factory.reload(), /etcd client TLS files/);
      assert.equal(credentialsOf(secure)[0], after[0]);
      secure.close();
      plain.close();
      factory.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("loads the files etcd users have as openssl writes them (RSA PKCS#1 and SEC1 EC keys, a chain in the cert file)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-etcd-client-'));
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    try {
      ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=etcd-ca');
      ssl('genrsa', '-traditional', '-out', 'rsa.key', '2048');
      ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ec.key');
      for (const key of ['rsa', 'ec']) {
        ssl('req', '-new', '-key', `${key}.key`, '-out', `${key}.csr`, '-subj', '/CN=kube-apiserver-etcd-client');
        ssl('x509', '-req', '-in', `${key}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${key}.crt`, '-days', '2');
        execFileSync('sh', ['-c', `cat ${key}.crt ca.crt > ${key}-chain.crt`], { cwd: dir });
      }
      assert.match(execFileSync('head', ['-1', join(dir, 'rsa.key')]).toString(), /BEGIN RSA PRIVATE KEY/);
      assert.match(execFileSync('head', ['-1', join(dir, 'ec.key')]).toString(), /BEGIN EC PRIVATE KEY/);
      for (const key of ['rsa', 'ec']) {
        const factory = await EtcdClientFactory.load({ caFile: join(dir, 'ca.crt'), certFile: join(dir, `${key}-chain.crt`), keyFile: join(dir, `${key}.key`) });
        const c = factory.client(['https://127.0.0.1:1']);
        c.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('opens a 1 MiB HTTP/2 window to etcd, for each stream and the connection, so a busy event loop does not throttle the watch', async () => {
    // A stand-in etcd that only records what the client's HTTP/2 session tells it.
    const server = createServer();
    const sessions: Http2Session[] = [];
    server.on('session', (s) => sessions.push(s));
    server.on('stream', (stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '3' }, { endStream: true }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const client = EtcdClientFactory.plain().client([`http://127.0.0.1:${port}`]);
    try {
      void client.get('k').string().catch(() => undefined);
      for (const until = Date.now() + 5000; sessions.length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      const session = sessions[0];
      assert.ok(session, 'the client connected');
      // The client's SETTINGS may still be on the way.
      for (const until = Date.now() + 2000; session.remoteSettings.initialWindowSize !== etcdFlowControlWindowBytes && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      assert.equal(session.remoteSettings.initialWindowSize, etcdFlowControlWindowBytes, 'each stream');
      for (const until = Date.now() + 2000; (session.state.remoteWindowSize ?? 0) < etcdFlowControlWindowBytes && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      assert.ok((session.state.remoteWindowSize ?? 0) >= etcdFlowControlWindowBytes - 65535, `the connection's window is ${session.state.remoteWindowSize}`);
    } finally {
      client.close();
      for (const s of sessions) s.destroy();
      server.close();
    }
  });
});
