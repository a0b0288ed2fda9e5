import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');
const issuer = 'https://issuer.example.com/realms/k8s';

function options(args: string[]) {
  const r = run(args);
  if (r.kind !== 'run') throw new Error(`expected run, got ${r.stderr ?? ''}`);
  return r.options;
}

function refused(args: string[]): string {
  const r = run(args);
  assert.equal(r.kind, 'exit', `expected ${args.join(' ')} to be refused`);
  return r.kind === 'exit' ? (r.stderr ?? '') : '';
}

describe('--oidc-* flags', () => {
  it('are off without any oidc flag', () => {
    assert.equal('oidc' in options([]), false);
  });

  it("take kube's defaults: sub, issuer# prefix, RS256", () => {
    assert.deepEqual(options([`--oidc-issuer-url=${issuer}`, '--oidc-client-id=kubernetes']).oidc, {
      issuerURL: issuer,
      clientID: 'kubernetes',
      usernameClaim: 'sub',
      usernamePrefix: `${issuer}#`,
      groupsPrefix: '',
      requiredClaims: new Map(),
      signingAlgs: ['RS256'],
    });
  });

  it('prefix defaulting: none for email, "-" disables, a given prefix is kept', () => {
    const base = [`--oidc-issuer-url=${issuer}`, '--oidc-client-id=k'];
    assert.equal(options([...base, '--oidc-username-claim=email']).oidc?.usernamePrefix, '');
    assert.equal(options([...base, '--oidc-username-prefix=-']).oidc?.usernamePrefix, '');
    assert.equal(options([...base, '--oidc-username-claim=email', '--oidc-username-prefix=oidc:']).oidc?.usernamePrefix, 'oidc:');
    assert.equal(options([...base, '--oidc-username-claim=preferred_username']).oidc?.usernamePrefix, `${issuer}#`);
  });

  it('repeatable required claims, comma lists of algorithms, groups, CA file', () => {
    const o = options([
      `--oidc-issuer-url=${issuer}`,
      '--oidc-client-id=k',
      '--oidc-required-claim=hd=example.com',
      '--oidc-required-claim',
      'tier=a=b,c',
      '--oidc-signing-algs=ES256,RS512',
      '--oidc-signing-algs',
      'PS256',
      '--oidc-groups-claim=groups',
      '--oidc-groups-prefix=oidc:',
      '--oidc-ca-file=/etc/oidc/ca.crt',
    ]).oidc;
    assert.deepEqual(o?.requiredClaims, new Map([['hd', 'example.com'], ['tier', 'a=b,c']]));
    assert.deepEqual(o?.signingAlgs, ['ES256', 'RS512', 'PS256']);
    assert.equal(o?.groupsClaim, 'groups');
    assert.equal(o?.groupsPrefix, 'oidc:');
    assert.equal(o?.caFile, '/etc/oidc/ca.crt');
  });

  it("refuses what kube refuses, with kube's messages", () => {
    const together = 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set';
    assert.ok(refused([`--oidc-issuer-url=${issuer}`]).includes(together));
    assert.ok(refused(['--oidc-client-id=k']).includes(together));
    assert.ok(refused(['--oidc-username-claim=email']).includes(together));
    assert.match(refused(['--oidc-issuer-url=http://issuer.example.com', '--oidc-client-id=k']), /jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/issuer.example.com": URL scheme must be https/);
    assert.match(refused([`--oidc-issuer-url=${issuer}?x=1`, '--oidc-client-id=k']), /URL must not contain a query/);
    assert.match(refused([`--oidc-issuer-url=${issuer}#frag`, '--oidc-client-id=k']), /URL must not contain a fragment/);
    assert.match(refused([`--oidc-issuer-url=${issuer}`, '--oidc-client-id=k', '--oidc-signing-algs=HS256']), /oidc: unsupported signing alg: "HS256"/);
    assert.match(refused([`--oidc-issuer-url=${issuer}`, '--oidc-client-id=k', '--oidc-required-claim=nope']), /invalid argument "nope" for "--oidc-required-claim" flag: malformed pair, expect string=string/);
    assert.match(refused([`--oidc-issuer-url=${issuer}`, '--oidc-client-id=k', '--oidc-username-claim=']), /claimMappings.username: Required value/);
  });
});

describe('--authentication-token-webhook-* flags', () => {
  it('are off without a config file; version and TTL take kube defaults', () => {
    assert.equal('authenticationWebhook' in options([]), false);
    assert.deepEqual(options(['--authentication-token-webhook-config-file=/etc/hook.yaml']).authenticationWebhook, {
      configFile: '/etc/hook.yaml',
      version: 'v1beta1',
      cacheTTLMs: 120_000,
    });
    assert.deepEqual(
      options(['--authentication-token-webhook-config-file=/h', '--authentication-token-webhook-version=v1', '--authentication-token-webhook-cache-ttl=30s']).authenticationWebhook,
      { configFile: '/h', version: 'v1', cacheTTLMs: 30_000 },
    );
  });

  it('refuses an unknown version and a bad duration', () => {
    assert.match(refused(['--authentication-token-webhook-version=v2']), /unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"/);
    assert.match(refused(['--authentication-token-webhook-cache-ttl=soon']), /invalid argument "soon" for "--authentication-token-webhook-cache-ttl" flag/);
  });
});
