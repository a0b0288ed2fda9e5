import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../pki.js';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'Kubernetes v1.33.0+capstan');

describe('--cluster-signing-* flags', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-csr-signing-'));
    const ca = await createCertificateAuthority('signing-ca');
    await writeFile(join(dir, 'ca.crt'), ca.certPem);
    await writeFile(join(dir, 'ca.key'), ca.keyPem);
    const leaf = await issueCertificate(ca, { commonName: 'leaf', usage: 'client' });
    await writeFile(join(dir, 'leaf.crt'), leaf.cert);
    await writeFile(join(dir, 'leaf.key'), leaf.key);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('signs nothing by default, with a year as the maximum', () => {
    const r = run([]);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.equal(r.options.csrSigning?.signers.size, 0);
    assert.equal(r.options.csrSigning?.durationMs, 8760 * 3_600_000);
  });

  it('gives every signer the general CA, or each its own', () => {
    const r = run([`--cluster-signing-cert-file=${join(dir, 'ca.crt')}`, `--cluster-signing-key-file=${join(dir, 'ca.key')}`, '--cluster-signing-duration=2h']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual([...(r.options.csrSigning?.signers.keys() ?? [])].sort(), ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving']);
    assert.equal(r.options.csrSigning?.durationMs, 7_200_000);
    const own = run([`--cluster-signing-kubelet-serving-cert-file=${join(dir, 'ca.crt')}`, `--cluster-signing-kubelet-serving-key-file=${join(dir, 'ca.key')}`]);
    assert.equal(own.kind, 'run');
    if (own.kind !== 'run') return;
    assert.deepEqual([...(own.options.csrSigning?.signers.keys() ?? [])], ['kubernetes.io/kubelet-serving']);
  });

  it('refuses what cannot sign', () => {
    const err = (args: string[]): string => {
      const r = run(args);
      assert.equal(r.kind, 'exit');
      return r.kind === 'exit' ? (r.stderr ?? '') : '';
    };
    assert.match(err([`--cluster-signing-cert-file=${join(dir, 'ca.crt')}`]), /--cluster-signing-cert-file and --cluster-signing-key-file must be given together/);
    assert.match(err([`--cluster-signing-cert-file=${join(dir, 'missing.crt')}`, `--cluster-signing-key-file=${join(dir, 'ca.key')}`]), /error reading CA cert file/);
    assert.match(err([`--cluster-signing-cert-file=${join(dir, 'ca.crt')}`, `--cluster-signing-key-file=${join(dir, 'leaf.key')}`]), /the private key does not match the certificate/);
    assert.match(err([`--cluster-signing-cert-file=${join(dir, 'leaf.crt')}`, `--cluster-signing-key-file=${join(dir, 'leaf.key')}`]), /is not a CA certificate/);
    assert.match(err([`--cluster-signing-cert-file=${join(dir, 'ca.crt')}`, `--cluster-signing-key-file=${join(dir, 'ca.key')}`, `--cluster-signing-kubelet-serving-cert-file=${join(dir, 'ca.crt')}`, `--cluster-signing-kubelet-serving-key-file=${join(dir, 'ca.key')}`]), /cannot specify --cluster-signing-\{cert,key\}-file and other --cluster-signing-\*-file flags at the same time/);
    assert.match(err(['--cluster-signing-duration=0s']), /--cluster-signing-duration 0s must be greater than 0/);
  });
});
