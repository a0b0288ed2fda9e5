/**
 * A rotated etcd client certificate: the API server's --etcd-certfile/--etcd-keyfile are replaced
 * on disk by a certificate from a new CA, and the etcd member restarts trusting only that CA. The
 * server reconnects with the new files by itself (no restart); a client still holding the old
 * certificate is refused, so the test cannot pass on the old one.
 */
import assert from 'node:assert/strict';
import { copyFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalEtcdCluster, type EtcdMember, type LocalEtcdCluster } from '../../hack/local-etcd-cluster.js';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { EtcdClientFactory } from '../../internal/storage/etcd3/client.js';
import { startServerOn, type ServerOn } from '../support/server-on.js';

const cms = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

describe('etcd client certificate rotation', () => {
  let cluster: LocalEtcdCluster;
  let s: ServerOn;

  before(async () => {
    cluster = await startLocalEtcdCluster({ members: 1 });
    const f = cluster.files;
    s = await startServerOn(cluster.endpoints, [`--etcd-cafile=${f.caFile}`, `--etcd-certfile=${f.certFile}`, `--etcd-keyfile=${f.keyFile}`]);
    await s.server.ready;
  });
  after(async () => {
    await s?.stop();
    await cluster?.stop();
  });

  it('new connections use the rotated files; requests work again once etcd requires them', async () => {
    const f = cluster.files;
    assert.equal((await s.request('POST', cms, { body: cm('before-rotation') })).status, 201);
    const old = { caFile: f.caFile, certFile: join(cluster.dir, 'old.crt'), keyFile: join(cluster.dir, 'old.key') };
    await copyFile(f.certFile, old.certFile);
    await copyFile(f.keyFile, old.keyFile);

    const newCA = await createCertificateAuthority('capstan-etcd-client-ca-2');
    const next = await issueCertificate(newCA, { commonName: 'capstan-apiserver', usage: 'client' });
    // As a secret mount or a renewal tool does: each file replaced whole.
    await writeFile(`${f.certFile}.tmp`, next.cert);
    await writeFile(`${f.keyFile}.tmp`, next.key, { mode: 0o600 });
    await rename(`${f.keyFile}.tmp`, f.keyFile);
    await rename(`${f.certFile}.tmp`, f.certFile);
    await cluster.setTrustedClientCA(newCA.certPem);
    const member = cluster.members[0] as EtcdMember;
    await member.stop();
    await member.start();

    // The member dropped the server's connections: the next ones are made with the new files.
    const started = Date.now();
    let status = 0;
    for (let i = 0; Date.now() - started < 15_000; i++) {
      status = (await s.request('POST', cms, { body: cm(`after-rotation-${i}`) })).status;
      if (status === 201) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 201, 'creates work again after the rotation');
    for (let i = 0; i < 5; i++) assert.equal((await s.request('POST', cms, { body: cm(`steady-${i}`) })).status, 201);
    assert.equal((await s.request('GET', `${cms}/before-rotation`)).status, 200);

    // The old certificate is refused now: the server did not get through on it.
    const stale = (await EtcdClientFactory.load(old)).client(cluster.endpoints, 'probe');
    try {
      await assert.rejects(stale.get('x').options({ deadline: new Date(Date.now() + 3000) }).string(), /certificate/);
    } finally {
      stale.close();
    }
  });
});
