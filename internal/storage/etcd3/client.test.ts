import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../../server/pki.js';
import { EtcdClientFactory } from './client.js';

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
});
