import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'Kubernetes v1.33.0+capstan');

describe('aggregator flags', () => {
  it('default to cluster IP routing and refused redirects', () => {
    const r = run([]);
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') assert.deepEqual(r.options.aggregator, { enableAggregatorRouting: false, rejectForwardingRedirect: true });
  });

  it('read the proxy client certificate pair and the booleans', () => {
    const r = run(['--proxy-client-cert-file=/pki/front-proxy-client.crt', '--proxy-client-key-file=/pki/front-proxy-client.key', '--enable-aggregator-routing', '--aggregator-reject-forwarding-redirect=false']);
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') {
      assert.deepEqual(r.options.aggregator, { proxyClientCertFile: '/pki/front-proxy-client.crt', proxyClientKeyFile: '/pki/front-proxy-client.key', enableAggregatorRouting: true, rejectForwardingRedirect: false });
    }
  });

  it('refuses a certificate without its key and a bad boolean', () => {
    const cert = run(['--proxy-client-cert-file=/pki/c.crt']);
    assert.equal(cert.kind, 'exit');
    if (cert.kind === 'exit') assert.match(cert.stderr ?? '', /--proxy-client-cert-file and --proxy-client-key-file must be specified together/);
    const bool = run(['--enable-aggregator-routing=maybe']);
    assert.equal(bool.kind, 'exit');
    if (bool.kind === 'exit') assert.match(bool.stderr ?? '', /invalid argument "maybe" for "--enable-aggregator-routing" flag/);
  });
});
