import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';
import { goUrlParseError } from './service-account.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');
const issuer = '--service-account-issuer=https://kubernetes.default.svc';
const signing = '--service-account-signing-key-file=/keys/sa.key';

function options(args: string[]) {
  const r = run(args);
  assert.equal(r.kind, 'run', r.kind === 'exit' ? r.stderr : '');
  return r.kind === 'run' ? r.options.serviceAccount : undefined;
}

function error(args: string[]): string {
  const r = run(args);
  assert.equal(r.kind, 'exit');
  return r.kind === 'exit' ? (r.stderr ?? '') : '';
}

describe('service account flags', () => {
  it('leave service account tokens off when none is given', () => {
    assert.equal(options([]), undefined);
  });

  it("take kube's defaults: lookup and extension on, no maximum, audiences from the issuers", () => {
    assert.deepEqual(options([issuer, signing]), {
      issuers: ['https://kubernetes.default.svc'],
      keyFiles: [],
      signingKeyFile: '/keys/sa.key',
      lookup: true,
      maxExpirationSeconds: 0,
      extendExpiration: true,
      apiAudiences: ['https://kubernetes.default.svc'],
    });
  });

  it('repeat --service-account-issuer and --service-account-key-file; --api-audiences is a comma list', () => {
    const o = options([
      issuer,
      '--service-account-issuer',
      'https://old.example',
      signing,
      '--service-account-key-file=/keys/a.pem',
      '--service-account-key-file',
      '/keys/b.pem',
      '--api-audiences=api,vault',
      '--api-audiences=other',
      '--service-account-lookup=false',
      '--service-account-extend-token-expiration=false',
      '--service-account-max-token-expiration=48h',
      '--service-account-jwks-uri=https://issuer.example/keys',
    ]);
    assert.deepEqual(o?.issuers, ['https://kubernetes.default.svc', 'https://old.example']);
    assert.deepEqual(o?.keyFiles, ['/keys/a.pem', '/keys/b.pem']);
    assert.deepEqual(o?.apiAudiences, ['api', 'vault', 'other']);
    assert.equal(o?.lookup, false);
    assert.equal(o?.extendExpiration, false);
    assert.equal(o?.maxExpirationSeconds, 48 * 3600);
    assert.equal(o?.jwksUri, 'https://issuer.example/keys');
  });

  it("refuses what kube-apiserver refuses, with its messages", () => {
    assert.equal(error([signing]), 'Error: service-account-issuer is a required flag\n');
    assert.equal(error(['--service-account-key-file=/k.pem']), 'Error: service-account-issuer is a required flag\n');
    assert.equal(error([issuer]), 'Error: --service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together\n');
    assert.equal(error(['--api-audiences=api', issuer]), 'Error: --service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together\n');
    assert.equal(error([issuer, issuer, signing]), 'Error: service-account-issuer "https://kubernetes.default.svc" is already specified\n');
    assert.equal(error(['--service-account-issuer=', signing]), 'Error: service-account-issuer should not be an empty string\n');
    assert.equal(
      error(['--service-account-issuer=1x:y', signing]),
      'Error: service-account-issuer "1x:y" contained a \':\' but was not a valid URL: parse "1x:y": first path segment in URL cannot contain colon\n',
    );
    assert.equal(error([issuer, signing, '--service-account-max-token-expiration=30m']), 'Error: the service-account-max-token-expiration must be between 1 hour and 2^32 seconds\n');
    assert.equal(error([issuer, signing, '--service-account-max-token-expiration=1200000h']), 'Error: the service-account-max-token-expiration must be between 1 hour and 2^32 seconds\n');
    assert.equal(error([issuer, signing, '--service-account-max-token-expiration=3600']), 'Error: invalid argument "3600" for "--service-account-max-token-expiration" flag: time: missing unit in duration "3600"\n');
    assert.equal(error([issuer, signing, '--service-account-lookup=maybe']), 'Error: invalid argument "maybe" for "--service-account-lookup" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n');
    assert.equal(error([issuer, signing, '--service-account-jwks-uri=http://x/keys']), 'Error: service-account-jwks-uri requires https scheme, parsed as: http://x/keys\n');
  });

  it('accept a non-URL issuer, as kube does', () => {
    assert.deepEqual(options(['--service-account-issuer=api', signing])?.issuers, ['api']);
  });

  it('goUrlParseError follows Go url.Parse on the usual mistakes', () => {
    assert.equal(goUrlParseError('https://kubernetes.default.svc'), undefined);
    assert.equal(goUrlParseError('api:8443'), undefined);
    assert.equal(goUrlParseError(':8443'), 'parse ":8443": missing protocol scheme');
    assert.equal(goUrlParseError('https://a b'), 'parse "https://a b": invalid URL');
    assert.equal(goUrlParseError('https://a\nb'), 'parse "https://a\\nb": net/url: invalid control character in URL');
  });
});
