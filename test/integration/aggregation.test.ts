/**
 * API aggregation against a real extension API server on loopback HTTPS (its own serving CA as
 * the APIService's caBundle, trusting Capstan's front-proxy client certificate): local APIServices
 * for the built-in and CRD group versions, the Available condition and its reasons, requests
 * proxied with the caller's identity in X-Remote-* (after impersonation; the Authorization header
 * stays behind), legacy and aggregated discovery and OpenAPI merged from the extension server, a
 * redirect refused, and 503 once the backend stops. Routed to an EndpointSlice's 127.0.0.1 with
 * --enable-aggregator-routing.
 */
import assert from 'node:assert/strict';
import { connect as h2connect } from 'node:http2';
import { connect } from 'node:tls';
import { after, describe, it } from 'node:test';
import { clientCert, createCertificateAuthority, tempDir, writeTemp } from '../support/client-certs.js';
import { registerWardle, startExtensionApiServer, type ExtensionApiServer } from '../support/extension-apiserver.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag, type StaticTokenUser } from '../support/static-tokens.js';

const alice: StaticTokenUser = { token: 'alice-token', name: 'alice', uid: 'alice-uid', groups: ['devs'] };
const apiServices = '/apis/apiregistration.k8s.io/v1/apiservices';
const gv = '/apis/wardle.example.com/v1alpha1';
let extension: ExtensionApiServer | undefined;
after(() => extension?.stop());

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const got = await probe();
      if (got !== undefined) return got;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function h2Get(port: number, ca: string, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const session = h2connect(`https://127.0.0.1:${port}`, { ca });
    session.on('error', reject);
    const stream = session.request({ ':path': path, ...headers });
    let status = 0;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (d: string) => (text += d));
    stream.on('end', () => {
      session.close();
      resolve({ status, text });
    });
    stream.on('error', reject);
  });
}

function available(obj: Record<string, any>): Record<string, any> | undefined {
  return (obj.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
}

describe('API aggregation to an extension API server (--enable-aggregator-routing)', () => {
  // The availability re-check every second rather than kube's 30 s, so that a stopped backend shows quickly.
  let frontProxyCAPem = '';
  const fx = useServer({ controlPlaneTuning: { apiServiceResyncMs: 1000 } }, async () => {
    const frontProxyCA = await createCertificateAuthority('test-front-proxy-ca');
    frontProxyCAPem = frontProxyCA.certPem;
    const proxyClient = await clientCert(frontProxyCA, 'front-proxy-client');
    const dir = await tempDir('capstan-aggregator-');
    extension = await startExtensionApiServer({ requestHeaderCA: frontProxyCA.certPem, allowedNames: ['front-proxy-client'], dnsNames: ['api.wardle.svc'] });
    return [
      await tokenAuthFileFlag([alice]),
      `--proxy-client-cert-file=${await writeTemp(dir, 'proxy.crt', proxyClient.cert)}`,
      `--proxy-client-key-file=${await writeTemp(dir, 'proxy.key', proxyClient.key)}`,
      '--enable-aggregator-routing=true',
      `--requestheader-client-ca-file=${await writeTemp(dir, 'front-proxy-ca.crt', frontProxyCA.certPem)}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    ];
  });

  it('registers local APIServices for the built-in group versions', async () => {
    const apps: Record<string, any> = await eventually('v1.apps', async () => {
      const r = await fx.request('GET', `${apiServices}/v1.apps`);
      return r.status === 200 ? r.json() : undefined;
    });
    assert.equal(apps.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
    assert.deepEqual(apps.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    assert.equal(available(apps)?.status, 'True');
    assert.equal(available(apps)?.reason, 'Local');
    assert.equal(available(apps)?.message, 'Local APIServices are always available');
    const core = await fx.request('GET', `${apiServices}/v1.`);
    assert.equal(core.status, 200);
    assert.equal(core.json().spec.groupPriorityMinimum, 18000);
  });

  it('publishes kube-system/extension-apiserver-authentication for extension servers', async () => {
    const cm = await eventually('extension-apiserver-authentication', async () => {
      const r = await fx.request('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
      return r.status === 200 ? (r.json() as Record<string, any>) : undefined;
    });
    assert.equal(cm.data['requestheader-client-ca-file'].trim(), frontProxyCAPem.trim());
    assert.equal(cm.data['requestheader-allowed-names'], '["front-proxy-client"]');
    assert.equal(cm.data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(cm.data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(cm.data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
  });

  it('registers a CRD group version as automanaged=true and removes it with the CRD', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.toys.example.com' },
      spec: {
        group: 'toys.example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    const created = await fx.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    assert.equal(created.status, 201, created.text);
    const api: Record<string, any> = await eventually('v1.toys.example.com', async () => {
      const r = await fx.request('GET', `${apiServices}/v1.toys.example.com`);
      return r.status === 200 ? r.json() : undefined;
    });
    assert.equal(api.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'true');
    assert.equal(api.spec.groupPriorityMinimum, 1000);
    assert.equal(api.spec.versionPriority, 100);
    assert.equal((await fx.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.toys.example.com')).status < 300, true);
    await eventually('v1.toys.example.com to go', async () => ((await fx.request('GET', `${apiServices}/v1.toys.example.com`)).status === 404 ? true : undefined));
  });

  it('reports a missing service as ServiceNotFound', async () => {
    const r = await fx.request('POST', apiServices, {
      body: { metadata: { name: 'v1.nowhere.example.com' }, spec: { group: 'nowhere.example.com', version: 'v1', service: { namespace: 'default', name: 'missing' }, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 10 } },
    });
    assert.equal(r.status, 201, r.text);
    const cond = await eventually('ServiceNotFound', async () => {
      const c = available((await fx.request('GET', `${apiServices}/v1.nowhere.example.com`)).json());
      return c?.reason ? c : undefined;
    });
    assert.equal(cond.status, 'False');
    assert.equal(cond.reason, 'ServiceNotFound');
    assert.equal(cond.message, 'service/missing in "default" is not present');
    const metrics = (await fx.request('GET', '/metrics')).text;
    assert.match(metrics, /aggregator_unavailable_apiservice\{name="v1.nowhere.example.com"\} 1/);
    // Counted only on a change from available to unavailable, as kube counts.
    assert.doesNotMatch(metrics, /aggregator_unavailable_apiservice_total\{name="v1.nowhere.example.com"/);
    assert.equal((await fx.request('DELETE', `${apiServices}/v1.nowhere.example.com`)).status, 200);
  });

  it('proxies to the extension server once Available, with the caller identity and without its credentials', async () => {
    const ext = extension as ExtensionApiServer;
    await registerWardle(fx, ext);
    const cond = await eventually('Available', async () => {
      const c = available((await fx.request('GET', `${apiServices}/v1alpha1.wardle.example.com`)).json());
      return c?.status === 'True' ? c : undefined;
    });
    assert.equal(cond.reason, 'Passed');
    assert.equal(cond.message, 'all checks passed');

    const as = {
      ...bearer(alice.token),
      'Impersonate-User': 'bob',
      'Impersonate-Uid': 'bob-uid',
      'Impersonate-Group': ['qa', 'team-b'] as unknown as string,
      'Impersonate-Extra-Acme.com%2Fproject': 'apollo',
      'Impersonate-Extra-Scopes': ['view', 'edit'] as unknown as string,
    };
    const created = await fx.request('POST', `${gv}/namespaces/default/flunders`, { body: { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'first' } }, headers: as });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().metadata.annotations['wardle.example.com/created-by'], 'bob');
    const list = await fx.request('GET', `${gv}/namespaces/default/flunders`, { headers: as });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.json().items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['first'],
    );
    const seen = ext.seen.filter((s) => s.path === `${gv}/namespaces/default/flunders`);
    assert.equal(seen.length, 2);
    for (const s of seen) {
      assert.equal(s.clientCN, 'front-proxy-client');
      assert.equal(s.user, 'bob');
      assert.equal(s.uid, 'bob-uid');
      assert.deepEqual(s.groups, ['qa', 'team-b', 'system:authenticated']);
      assert.deepEqual(s.extra, { 'acme.com%2fproject': ['apollo'], scopes: ['view', 'edit'] });
      assert.equal(s.authorization, undefined);
    }
    // The availability check asks as the aggregator itself.
    assert.ok(ext.seen.some((s) => s.path === gv && s.user === 'system:kube-aggregator' && s.groups.includes('system:masters')));
    // Over HTTP/2 too (kubectl's protocol): the pseudo-headers are no headers to forward.
    const overH2 = await h2Get(fx.port, fx.ca, `${gv}/namespaces/default/flunders`, bearer(alice.token));
    assert.equal(overH2.status, 200, overH2.text);
    assert.deepEqual(JSON.parse(overH2.text).items.map((i: { metadata: { name: string } }) => i.metadata.name), ['first']);
    assert.equal(ext.seen.filter((s) => s.path === `${gv}/namespaces/default/flunders`).at(-1)?.user, 'alice');
  });

  it('merges the group into legacy and aggregated discovery', async () => {
    const apis = (await fx.request('GET', '/apis')).json();
    const names = apis.groups.map((g: { name: string }) => g.name);
    assert.ok(names.includes('wardle.example.com'));
    // groupPriorityMinimum 2000 ranks it after every built-in group (the lowest is 15800 or so).
    assert.ok(names.indexOf('wardle.example.com') > names.indexOf('apps'));
    // Ordered by the APIServices' priorities, the built-in groups stay in kube's discovery order.
    assert.deepEqual(names.slice(0, 8), ['apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch', 'certificates.k8s.io']);
    // The built-in groups kube 1.33 serves by default end with these two (the alpha ones are off).
    assert.deepEqual(names.slice(-3), ['discovery.k8s.io', 'flowcontrol.apiserver.k8s.io', 'wardle.example.com']);
    assert.deepEqual(apis.groups.find((g: { name: string }) => g.name === 'wardle.example.com').preferredVersion, { groupVersion: 'wardle.example.com/v1alpha1', version: 'v1alpha1' });
    const group = await fx.request('GET', '/apis/wardle.example.com');
    assert.equal(group.status, 200);
    assert.equal(group.json().kind, 'APIGroup');
    const resources = await fx.request('GET', gv);
    assert.equal(resources.status, 200);
    assert.equal(resources.json().resources[0].name, 'flunders');
    const item = await eventually('aggregated discovery of wardle', async () => {
      const r = await fx.request('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
      return r.json().items.find((i: { metadata: { name: string } }) => i.metadata.name === 'wardle.example.com');
    });
    assert.equal(item.versions[0].version, 'v1alpha1');
    assert.equal(item.versions[0].freshness, 'Current');
    assert.equal(item.versions[0].resources[0].resource, 'flunders');
  });

  it('merges the extension server OpenAPI into /openapi/v2 and /openapi/v3', async () => {
    await eventually('OpenAPI v2 definitions', async () => {
      const doc = (await fx.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } })).json();
      return doc.definitions?.['com.example.wardle.v1alpha1.Flunder'] && doc.paths?.['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders'] ? true : undefined;
    });
    const index = await eventually('OpenAPI v3 index', async () => (await fx.request('GET', '/openapi/v3')).json().paths?.['apis/wardle.example.com/v1alpha1']);
    const doc = await fx.request('GET', index.serverRelativeURL);
    assert.equal(doc.status, 200);
    assert.ok(doc.json().components.schemas['com.example.wardle.v1alpha1.Flunder']);
  });

  it('refuses a redirect from the backend (--aggregator-reject-forwarding-redirect defaults to true)', async () => {
    const r = await fx.request('GET', `${gv}/namespaces/default/flunders/redirect`);
    assert.equal(r.status, 502);
    assert.equal(r.text, 'the backend attempted to redirect this request, which is not permitted');
  });

  it('joins an upgraded connection to the extension server', async () => {
    const socket = connect({ host: '127.0.0.1', port: fx.port, ca: fx.ca, servername: 'localhost' });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.write(`GET ${gv}/namespaces/default/flunders/first/echo HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n`);
    await eventually('101', async () => (received.includes('\r\n\r\n') ? true : undefined));
    assert.match(received, /^HTTP\/1.1 101 Switching Protocols\r\n/);
    const afterHead = received.length;
    socket.write('ping over the upgraded connection');
    await eventually('echo', async () => (received.slice(afterHead).includes('ping over the upgraded connection') ? true : undefined));
    socket.destroy();
    const seen = (extension as ExtensionApiServer).seen.find((s) => s.path.endsWith('/first/echo'));
    assert.equal(seen?.clientCN, 'front-proxy-client');
    assert.equal(seen?.user, 'system:anonymous');
  });

  it('answers 503 once the backend stops and recovers when it returns', async () => {
    const ext = extension as ExtensionApiServer;
    await ext.stop();
    const cond = await eventually('FailedDiscoveryCheck', async () => {
      const c = available((await fx.request('GET', `${apiServices}/v1alpha1.wardle.example.com`)).json());
      return c?.status === 'False' ? c : undefined;
    });
    assert.equal(cond.reason, 'FailedDiscoveryCheck');
    const url = `https://127.0.0.1:${ext.port}${gv}`;
    assert.equal(cond.message, `failing or missing response from ${url}: Get "${url}": dial tcp 127.0.0.1:${ext.port}: connect: connection refused`);
    const r = await fx.request('GET', `${gv}/namespaces/default/flunders`);
    assert.equal(r.status, 503);
    assert.equal(r.text, 'service unavailable\n');
    const metrics = (await fx.request('GET', '/metrics')).text;
    assert.match(metrics, /aggregator_unavailable_apiservice\{name="v1alpha1.wardle.example.com"\} 1/);
    assert.match(metrics, /aggregator_unavailable_apiservice_total\{name="v1alpha1.wardle.example.com",reason="FailedDiscoveryCheck"\} 1/);
    await ext.start();
    await eventually('Available again', async () => (available((await fx.request('GET', `${apiServices}/v1alpha1.wardle.example.com`)).json())?.status === 'True' ? true : undefined));
    assert.equal((await fx.request('GET', `${gv}/namespaces/default/flunders`)).status, 200);
  });
});
