import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags, type ParseResult } from './flags.js';

const run = (...args: string[]): ParseResult => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');

function refused(r: ParseResult): string {
  assert.equal(r.kind, 'exit', 'the flags should have been refused');
  return r.kind === 'exit' ? (r.stderr ?? '') : '';
}

describe('secure serving flags', () => {
  it('--cert-dir, --tls-cert-file and --tls-private-key-file keep their names and defaults', () => {
    const r = run('--cert-dir=/tmp/certs', '--tls-cert-file=/a.crt', '--tls-private-key-file=/a.key');
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.secureServing, {
      certDir: '/tmp/certs',
      tlsCertFile: '/a.crt',
      tlsPrivateKeyFile: '/a.key',
      sniCertKeys: [],
      minTLSVersion: 'VersionTLS12',
      cipherSuites: [],
    });
    assert.equal(refused(run('--tls-cert-file=/a.crt')), 'Error: --tls-cert-file and --tls-private-key-file must be given together\n');
  });

  it('--tls-sni-cert-key is repeatable, in kube NamedCertKey syntax', () => {
    const r = run('--tls-sni-cert-key', 'foo.crt,foo.key:*.foo.com, foo.com', '--tls-sni-cert-key=bar.crt,bar.key');
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.secureServing?.sniCertKeys, [
      { certFile: 'foo.crt', keyFile: 'foo.key', names: ['*.foo.com', 'foo.com'] },
      { certFile: 'bar.crt', keyFile: 'bar.key', names: [] },
    ]);
    assert.equal(refused(run('--tls-sni-cert-key=onlyone.crt')), 'Error: invalid argument "onlyone.crt" for "--tls-sni-cert-key" flag: expected comma separated certificate and key file paths\n');
    assert.equal(refused(run('--tls-sni-cert-key=a.crt,a.key:')), 'Error: invalid argument "a.crt,a.key:" for "--tls-sni-cert-key" flag: empty names list is not allowed\n');
  });

  it('--tls-min-version takes kube names; empty means VersionTLS12; others get kube message', () => {
    for (const v of ['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13']) {
      const r = run(`--tls-min-version=${v}`);
      assert.equal(r.kind === 'run' && r.options.secureServing?.minTLSVersion, v);
    }
    const empty = run('--tls-min-version=');
    assert.equal(empty.kind === 'run' && empty.options.secureServing?.minTLSVersion, 'VersionTLS12');
    assert.equal(refused(run('--tls-min-version=TLS1.3')), 'Error: unknown tls version "TLS1.3"\n');
  });

  it('--tls-cipher-suites: comma separated and repeatable, Go names (aliases too), unknown names refused', () => {
    const r = run('--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', '--tls-cipher-suites', 'TLS_AES_128_GCM_SHA256');
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') assert.deepEqual(r.options.secureServing?.cipherSuites, ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'TLS_AES_128_GCM_SHA256']);
    assert.equal(refused(run('--tls-cipher-suites=TLS_NOPE')), "Error: Cipher suite TLS_NOPE not supported or doesn't exist\n");
    assert.match(refused(run('--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA')), /Cipher suite TLS_RSA_WITH_RC4_128_SHA is not available in this server's TLS library/);
  });

  it('--strict-transport-security-directives: max-age=, includeSubDomains, preload', () => {
    const r = run('--strict-transport-security-directives=max-age=31536000,includeSubDomains,preload');
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') assert.deepEqual(r.options.hsts?.directives, ['max-age=31536000', 'includeSubDomains', 'preload']);
    const invalid =
      '--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information';
    assert.equal(refused(run('--strict-transport-security-directives=max-age')), `Error: ${invalid}\n`);
    assert.equal(refused(run('--strict-transport-security-directives=max-age=1, preload')), `Error: ${invalid}\n`);
    assert.equal(refused(run('--strict-transport-security-directives=max-age=1,,preload')), 'Error: empty value in strict-transport-security-directives\n');
  });

  it('--cors-allowed-origins: pinned regular expressions only, kube messages', () => {
    const r = run('--cors-allowed-origins=//example\\.com(:|$),^https://a\\.io$');
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') assert.deepEqual(r.options.cors?.allowedOrigins, ['//example\\.com(:|$)', '^https://a\\.io$']);
    const empty = run('--cors-allowed-origins=');
    assert.equal(empty.kind === 'run' && empty.options.cors?.allowedOrigins.length, 0);
    assert.match(refused(run('--cors-allowed-origins=example\\.com')), /^Error: --cors-allowed-origins has an invalid regular expression: regular expression does not pin to start\/end of host in the origin header, help: List of allowed origins for CORS/);
    assert.match(refused(run('--cors-allowed-origins=^https://(a$')), /^Error: --cors-allowed-origins has an invalid regular expression: error parsing regexp: /);
    assert.match(refused(run('--cors-allowed-origins=^a$,,^b$')), /^Error: empty value in --cors-allowed-origins, help: /);
    assert.match(refused(run('--cors-allowed-origins=a,b')), /^Error: \[--cors-allowed-origins has an invalid regular expression: .*, --cors-allowed-origins has an invalid regular expression: /);
  });
});
