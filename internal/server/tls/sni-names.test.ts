import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../pki.js';
import { parseNamedCertKey } from './named-cert-key.js';
import { certificateNames, SniNameMap } from './sni-names.js';

describe('--tls-sni-cert-key values', () => {
  it("parses kube's NamedCertKey syntax", () => {
    assert.deepEqual(parseNamedCertKey('a.crt,a.key'), { certFile: 'a.crt', keyFile: 'a.key', names: [] });
    assert.deepEqual(parseNamedCertKey(' a.crt , a.key : *.foo.com , foo.com '), { certFile: 'a.crt', keyFile: 'a.key', names: ['*.foo.com', 'foo.com'] });
    assert.throws(() => parseNamedCertKey('a.crt'), { message: 'expected comma separated certificate and key file paths' });
    assert.throws(() => parseNamedCertKey('a.crt,a.key,b'), { message: 'expected comma separated certificate and key file paths' });
    assert.throws(() => parseNamedCertKey('a.crt,a.key: '), { message: 'empty names list is not allowed' });
  });
});

describe('SNI name matching', () => {
  const certs: Record<string, string> = {};
  before(async () => {
    const ca = await createCertificateAuthority('test-ca');
    const make = async (cn: string, dns: string[], ips: string[] = []) => (await issueCertificate(ca, { commonName: cn, usage: 'server', dns, ips })).cert;
    certs.foo = await make('foo', ['foo.test']);
    certs.bar = await make('bar.test', ['www.bar.test', '*.wild.test'], ['10.1.2.3']);
    certs.ipcn = await make('10.9.9.9', ['ip.test']);
    certs.upper = await make('Not_A_Domain', ['ok.test']);
  });

  it('extracts the CN when it is a DNS name (never an IP), then the DNS SANs, never IP SANs', () => {
    assert.deepEqual(certificateNames(certs.bar as string), ['bar.test', 'www.bar.test', '*.wild.test']);
    assert.deepEqual(certificateNames(certs.ipcn as string), ['ip.test']);
    assert.deepEqual(certificateNames(certs.upper as string), ['ok.test']);
  });

  it('exact names before wildcards; a wildcard covers one label; unknown names get the default', () => {
    const map = new SniNameMap([
      { certPem: certs.foo as string, names: ['*.foo.test', 'foo.test'], value: 'foo' },
      { certPem: certs.bar as string, names: [], value: 'bar' },
      { certPem: certs.foo as string, names: ['exact.wild.test'], value: 'exact' },
    ]);
    assert.equal(map.match('foo.test'), 'foo');
    assert.equal(map.match('A.Foo.Test'), 'foo');
    assert.equal(map.match('a.b.foo.test'), undefined);
    assert.equal(map.match('bar.test'), 'bar');
    assert.equal(map.match('x.wild.test'), 'bar');
    assert.equal(map.match('exact.wild.test'), 'exact');
    assert.equal(map.match('wild.test'), undefined);
    assert.equal(map.match('10.1.2.3'), undefined);
    assert.equal(map.match('nothing.test'), undefined);
    assert.equal(map.hasAddresses, false);
  });

  it('explicit patterns beat extracted names; between pairs the first given wins', () => {
    const map = new SniNameMap([
      { certPem: certs.bar as string, names: [], value: 'extracted' },
      { certPem: certs.foo as string, names: ['bar.test'], value: 'explicit-1' },
      { certPem: certs.foo as string, names: ['bar.test', 'foo.test'], value: 'explicit-2' },
      { certPem: certs.foo as string, names: [], value: 'extracted-later' },
    ]);
    assert.equal(map.match('bar.test'), 'explicit-1');
    assert.equal(map.match('www.bar.test'), 'extracted');
    assert.equal(map.match('foo.test'), 'explicit-2');
  });

  it('an explicit IP pattern answers clients without SNI that connected to that address', () => {
    const map = new SniNameMap([{ certPem: certs.foo as string, names: ['127.0.0.1'], value: 'ip' }]);
    assert.equal(map.hasAddresses, true);
    assert.equal(map.forAddress('127.0.0.1'), 'ip');
    assert.equal(map.forAddress('::ffff:127.0.0.1'), 'ip');
    assert.equal(map.forAddress('127.0.0.2'), undefined);
  });
});
