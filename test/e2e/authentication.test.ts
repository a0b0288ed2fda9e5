/**
 * End to end: the real kubectl authenticates with a client certificate and with a bearer token
 * (kubeconfigs as hack/run-local.ts writes them) against a server with --anonymous-auth=false;
 * a bad token, no credentials, and a certificate from an unknown CA are refused ("Unauthorized"),
 * until that CA is added to --client-ca-file on disk. The CA names the TLS server sends in its
 * certificate request (which Go's crypto/tls clients choose a certificate by) follow the file,
 * as openssl s_client shows.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { clientCert, createCertificateAuthority, tempDir, writeTemp, type CertificateAuthority } from '../support/client-certs.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

let clientCA: CertificateAuthority;
let strangerCA: CertificateAuthority;
let clientCAFile: string;

const fx = useServer({}, async () => {
  clientCA = await createCertificateAuthority('client-ca');
  strangerCA = await createCertificateAuthority('stranger-ca');
  const dir = await tempDir();
  clientCAFile = await writeTemp(dir, 'ca.crt', clientCA.certPem);
  return [
    '--anonymous-auth=false',
    `--client-ca-file=${clientCAFile}`,
    `--token-auth-file=${await writeTemp(dir, 'tokens.csv', 'e2e-token-1234,ops-user,1001,ops\n')}`,
  ];
});

/** The "Acceptable client certificate CA names" the server's handshake lists, per openssl s_client. */
function acceptableCANames(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost'], { timeout: 10_000 }, (err, stdout) => {
      const m = /Acceptable client certificate CA names\n([\s\S]*?)\n(Requested|Client Certificate|Peer signing|---)/.exec(stdout);
      if (m) resolve(m[1] as string);
      else reject(err ?? new Error(`no CA names in: ${stdout}`));
    });
    child.stdin?.end();
  });
}

describe('kubectl with client certificates and tokens', () => {
  const configs: Record<string, string> = {};
  before(async () => {
    const server = `https://127.0.0.1:${fx.port}`;
    const admin = await clientCert(clientCA, 'admin', ['system:masters']);
    const stranger = await clientCert(strangerCA, 'admin', ['system:masters']);
    const write = async (name: string, text: string): Promise<void> => {
      configs[name] = join(fx.dir, `kubeconfig-${name}`);
      await writeFile(configs[name] as string, text);
    };
    await write('cert', kubeconfig(server, fx.ca, 'capstan', { clientCert: admin.cert, clientKey: admin.key }));
    await write('token', kubeconfig(server, fx.ca, 'capstan', { token: 'e2e-token-1234' }));
    await write('bad-token', kubeconfig(server, fx.ca, 'capstan', { token: 'wrong-token' }));
    await write('stranger', kubeconfig(server, fx.ca, 'capstan', { clientCert: stranger.cert, clientKey: stranger.key }));
  });

  it('serves a client-certificate kubeconfig and a token kubeconfig', async () => {
    for (const name of ['cert', 'token']) {
      const r = await kubectl(configs[name] as string, ['get', '--raw', '/api']);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.equal(JSON.parse(r.stdout).kind, 'APIVersions');
    }
    const ns = await kubectl(configs.cert as string, ['get', 'namespace', 'default', '-o', 'name']);
    assert.equal(ns.stdout.trim(), 'namespace/default', ns.stderr);
  });

  it('refuses a bad token, no credentials and a certificate from an unknown CA', async () => {
    for (const path of [configs['bad-token'] as string, fx.kubeconfigPath, configs.stranger as string]) {
      const r = await kubectl(path, ['get', '--raw', '/api']);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Unauthorized/, r.stderr);
    }
  });

  it('accepts a certificate from a CA added to the client CA file while running', async () => {
    assert.doesNotMatch(await acceptableCANames(fx.port), /stranger-ca/);
    await writeFile(clientCAFile, clientCA.certPem + strangerCA.certPem);
    const deadline = Date.now() + 10_000;
    let r = await kubectl(configs.stranger as string, ['get', '--raw', '/api']);
    while (r.code !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      r = await kubectl(configs.stranger as string, ['get', '--raw', '/api']);
    }
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await kubectl(configs.cert as string, ['get', '--raw', '/api'])).code, 0);
    const names = await acceptableCANames(fx.port);
    assert.match(names, /CN ?= ?stranger-ca/);
    assert.match(names, /CN ?= ?client-ca/);
  });
});
