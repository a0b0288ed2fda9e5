/**
 * The compose file's etcd members, run for real with the certificates hack/gen-deploy-certs.ts
 * writes (test/deploy/compose-etcd.ts): the three form one cluster over peer TLS; the API servers'
 * client certificate writes through one member and reads through another; a client without a
 * certificate is refused.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { composePlan, generateDeployPki } from '../../hack/deploy-pki.js';
import { httpsGet, startComposeEtcd, tlsFiles, type ComposeEtcd } from './compose-etcd.js';

let out = '';
let etcd: ComposeEtcd | undefined;

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'capstan-etcd-tls-'));
  await generateDeployPki(out, composePlan);
  etcd = await startComposeEtcd(out);
});

after(async () => {
  await etcd?.stop();
  if (out) await rm(out, { recursive: true, force: true });
});

describe('compose etcd members, run with the generated certificates', () => {
  it("form one cluster over peer TLS; the API servers' client certificate writes on one member and reads on another", async () => {
    const pki = join(out, 'apiserver-1', 'pki');
    const client = tlsFiles(pki, 'apiserver-etcd-client', join(pki, 'etcd', 'ca.crt'));
    const at = (url: string) => new Etcd3({ hosts: [url], credentials: { rootCertificate: client.ca, certChain: client.cert, privateKey: client.key } });
    const first = at(etcd!.clientURLs[0]!);
    const last = at(etcd!.clientURLs[2]!);
    try {
      const members = await first.cluster.memberList({});
      assert.deepEqual(members.members.map((m) => m.name).sort(), ['etcd-1', 'etcd-2', 'etcd-3']);
      await first.put('/registry/deploy-test').value('written through etcd-1');
      assert.equal(await last.get('/registry/deploy-test').string(), 'written through etcd-1');
    } finally {
      first.close();
      last.close();
    }
  });

  it('refuses a client without a certificate (--client-cert-auth)', async () => {
    const ca = readFileSync(join(out, 'etcd-1', 'pki', 'etcd', 'ca.crt'));
    const r = await httpsGet(`${etcd!.clientURLs[0]}/health`, { ca }).catch((err: Error) => ({ status: 0, body: err.message }));
    assert.notEqual(r.status, 200, `answered without a client certificate: ${r.body}`);
  });
});
