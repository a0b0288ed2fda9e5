import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadWebhookKubeconfig } from './kubeconfig.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('webhook kubeconfig', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-kubeconfig-'));
    await mkdir(join(dir, 'pki'));
    await writeFile(join(dir, 'pki', 'ca.crt'), 'CA FROM FILE');
    await writeFile(join(dir, 'pki', 'client.crt'), 'CERT FROM FILE');
    await writeFile(join(dir, 'pki', 'client.key'), 'KEY FROM FILE');
    await writeFile(join(dir, 'token'), 'token-from-file\n');
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  async function load(name: string, text: string) {
    const p = join(dir, name);
    await writeFile(p, text);
    return loadWebhookKubeconfig(p);
  }

  it('resolves relative file paths against the kubeconfig directory', async () => {
    const t = await load(
      'relative.yaml',
      `clusters:
- name: c
  cluster:
    server: https://hook.example:8443/authn
    certificate-authority: pki/ca.crt
users:
- name: u
  user:
    client-certificate: pki/client.crt
    client-key: ./pki/client.key
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`,
    );
    assert.equal(t.server, 'https://hook.example:8443/authn');
    assert.equal(t.ca?.toString(), 'CA FROM FILE');
    assert.equal(t.clientCert?.toString(), 'CERT FROM FILE');
    assert.equal(t.clientKey?.toString(), 'KEY FROM FILE');
    assert.equal(t.insecureSkipTLSVerify, false);
  });

  it('reads inline -data fields (base64), which win over file paths', async () => {
    const t = await load(
      'inline.yaml',
      `clusters:
- name: c
  cluster:
    server: https://127.0.0.1:1
    certificate-authority: pki/missing.crt
    certificate-authority-data: ${b64('INLINE CA')}
    tls-server-name: hook.internal
users:
- name: u
  user:
    client-certificate-data: ${b64('INLINE CERT')}
    client-key-data: ${b64('INLINE KEY')}
`,
    );
    assert.equal(t.ca?.toString(), 'INLINE CA');
    assert.equal(t.clientCert?.toString(), 'INLINE CERT');
    assert.equal(t.clientKey?.toString(), 'INLINE KEY');
    assert.equal(t.tlsServerName, 'hook.internal');
  });

  it('uses the cluster and user of current-context, not the first ones', async () => {
    const t = await load(
      'contexts.yaml',
      `clusters:
- name: first
  cluster: {server: 'https://first.example'}
- name: second
  cluster: {server: 'https://second.example', insecure-skip-tls-verify: true}
users:
- name: one
  user: {token: token-one}
- name: two
  user: {tokenFile: token}
contexts:
- name: a
  context: {cluster: first, user: one}
- name: b
  context: {cluster: second, user: two}
current-context: b
`,
    );
    assert.equal(t.server, 'https://second.example');
    assert.equal(t.insecureSkipTLSVerify, true);
    assert.equal(t.token, 'token-from-file');
  });

  it('prefers token over tokenFile and keeps basic credentials', async () => {
    const t = await load('token.yaml', `clusters:\n- name: c\n  cluster: {server: 'http://127.0.0.1:9'}\nusers:\n- name: u\n  user: {token: inline, tokenFile: token}\n`);
    assert.equal(t.token, 'inline');
    const basic = await load('basic.yaml', `clusters:\n- name: c\n  cluster: {server: 'http://127.0.0.1:9'}\nusers:\n- name: u\n  user: {username: admin, password: secret}\n`);
    assert.equal(basic.username, 'admin');
    assert.equal(basic.password, 'secret');
    assert.equal(basic.token, undefined);
  });

  it('refuses what it cannot honour, naming the file', async () => {
    const file = join(dir, 'bad.yaml');
    const cases: Array<[string, RegExp]> = [
      ['current-context: nope\ncontexts: []\nclusters:\n- name: c\n  cluster: {server: "https://x"}\n', /current-context "nope" is not in contexts/],
      ['clusters:\n- name: c\n  cluster: {server: "https://x"}\ncontexts:\n- name: x\n  context: {cluster: c, user: ghost}\ncurrent-context: x\n', /user "ghost" was not found for context "x"/],
      ['clusters:\n- name: c\n  cluster: {server: "https://x"}\ncontexts:\n- name: x\n  context: {cluster: gone}\ncurrent-context: x\n', /cluster "gone" was not found/],
      ['clusters:\n- name: c\n  cluster: {server: "ftp://x"}\n', /no http\(s\) server URL/],
      ['clusters:\n- name: c\n  cluster: {server: "https://x"}\nusers:\n- name: u\n  user: {client-certificate-data: QQ==}\n', /client-certificate and client-key must be given together/],
      ['clusters:\n- name: c\n  cluster: {server: "https://x"}\nusers:\n- name: u\n  user: {exec: {command: get-token}}\n', /user.exec credentials are not supported/],
      ['clusters:\n- name: c\n  cluster: {server: "https://x", certificate-authority: nowhere.crt}\n', /ENOENT/],
      ['users: []\n', /no cluster/],
      ['- just\n- a list\n', /must be an object/],
    ];
    for (const [text, want] of cases) {
      await writeFile(file, text);
      await assert.rejects(loadWebhookKubeconfig(file), (err: Error) => {
        assert.match(err.message, want);
        assert.ok(err.message.startsWith(`invalid webhook kubeconfig ${file}: `), err.message);
        return true;
      });
    }
  });
});
