/**
 * End to end: kubectl against an aggregated API. With an extension API server registered through
 * an APIService, `kubectl api-resources` lists its resource, `kubectl get apiservices` shows it
 * Available beside the local ones, and `kubectl create` and `kubectl get flunders` go through
 * Capstan to the extension server.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { clientCert, createCertificateAuthority, tempDir, writeTemp } from '../support/client-certs.js';
import { registerWardle, startExtensionApiServer, type ExtensionApiServer } from '../support/extension-apiserver.js';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

let extension: ExtensionApiServer | undefined;
after(() => extension?.stop());

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('kubectl and an aggregated API server', () => {
  const fx = useServer({}, async () => {
    const frontProxyCA = await createCertificateAuthority('e2e-front-proxy-ca');
    const proxyClient = await clientCert(frontProxyCA, 'front-proxy-client');
    const dir = await tempDir('capstan-aggregator-e2e-');
    extension = await startExtensionApiServer({ requestHeaderCA: frontProxyCA.certPem, allowedNames: ['front-proxy-client'], dnsNames: ['api.wardle.svc'] });
    return [`--proxy-client-cert-file=${await writeTemp(dir, 'proxy.crt', proxyClient.cert)}`, `--proxy-client-key-file=${await writeTemp(dir, 'proxy.key', proxyClient.key)}`, '--enable-aggregator-routing=true'];
  });

  it('lists, creates and gets flunders through Capstan', async () => {
    await registerWardle(fx, extension as ExtensionApiServer);
    ok(await kubectl(fx.kubeconfigPath, ['wait', '--for=condition=Available', 'apiservice/v1alpha1.wardle.example.com', '--timeout=20s']), 'kubectl wait');
    const services = ok(await kubectl(fx.kubeconfigPath, ['get', 'apiservices']), 'get apiservices');
    assert.match(services, /v1\.apps\s+Local\s+True/);
    assert.match(services, /v1alpha1\.wardle\.example\.com\s+wardle\/api\s+True/);
    const resources = ok(await kubectl(fx.kubeconfigPath, ['api-resources', '--api-group=wardle.example.com']), 'api-resources');
    assert.match(resources, /^flunders\s+fl\s+wardle\.example\.com\/v1alpha1\s+true\s+Flunder$/m);
    ok(await kubectl(fx.kubeconfigPath, ['create', '-f', '-'], { input: 'apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata: {name: from-kubectl, namespace: default}\n' }), 'create');
    const list = ok(await kubectl(fx.kubeconfigPath, ['get', 'flunders', '-n', 'default']), 'get flunders');
    assert.match(list, /^NAME\b/);
    assert.match(list, /^from-kubectl\b/m);
    const one = JSON.parse(ok(await kubectl(fx.kubeconfigPath, ['get', 'fl', 'from-kubectl', '-n', 'default', '-o', 'json']), 'get -o json'));
    assert.equal(one.kind, 'Flunder');
  });
});
