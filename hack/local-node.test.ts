import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createCertificateAuthority } from '../internal/server/pki.js';
import { writeKubeletClientPki, writeNodeAgentFiles } from './local-node.js';

describe('hack/local-node: a node agent set up as kubeadm sets up a node', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('writes the API server kubelet client PKI, the node identity, serving pair and KubeletConfiguration', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-local-node-'));
    dirs.push(dir);
    const clientCA = await createCertificateAuthority('test-client-ca');
    const pki = await writeKubeletClientPki(join(dir, 'apiserver'), clientCA);
    const flag = (name: string): string => pki.apiServerFlags.find((f) => f.startsWith(`--${name}=`))!.slice(name.length + 3);
    const apiClient = new X509Certificate(await readFile(flag('kubelet-client-certificate'), 'utf8'));
    assert.equal(apiClient.subject, 'O=system:masters\nCN=kube-apiserver-kubelet-client');
    assert.ok(apiClient.checkIssued(new X509Certificate(clientCA.certPem)), 'signed by the client CA the agent trusts');

    const files = await writeNodeAgentFiles({
      dir: join(dir, 'node'),
      nodeName: 'worker-1',
      server: 'https://127.0.0.1:6443',
      serverCA: clientCA.certPem,
      clientCA,
      pki,
      runtimeEndpoint: 'unix:///tmp/x/containerd.sock',
      port: 20250,
      healthzPort: 20248,
      config: { nodeLeaseDurationSeconds: 4 },
    });
    const config = parse(await readFile(files.configFile, 'utf8')) as Record<string, any>;
    assert.equal(config.kind, 'KubeletConfiguration');
    assert.equal(config.apiVersion, 'kubelet.config.k8s.io/v1beta1');
    assert.equal(config.port, 20250);
    assert.equal(config.containerRuntimeEndpoint, 'unix:///tmp/x/containerd.sock');
    assert.equal(config.staticPodPath, files.manifestDir);
    assert.equal(config.nodeLeaseDurationSeconds, 4);
    assert.equal(config.authorization.mode, 'Webhook');
    const serving = new X509Certificate(await readFile(config.tlsCertFile, 'utf8'));
    assert.ok(serving.checkIssued(new X509Certificate(pki.servingCA.certPem)), 'serving certificate signed by the CA the API server checks');
    assert.ok(serving.checkIP('127.0.0.1') && serving.checkHost('worker-1'), `SANs: ${serving.subjectAltName}`);

    const kubeconfig = parse(await readFile(files.kubeconfig, 'utf8')) as Record<string, any>;
    const identity = new X509Certificate(Buffer.from(kubeconfig.users[0].user['client-certificate-data'], 'base64').toString());
    assert.equal(identity.subject, 'O=system:nodes\nCN=system:node:worker-1');
    assert.equal(kubeconfig.clusters[0].cluster.server, 'https://127.0.0.1:6443');
    assert.deepEqual(files.args.slice(0, 2), ['--config', files.configFile]);
    assert.ok(files.args.includes('--hostname-override') && files.args.includes('worker-1'));
  });
});
