/**
 * --runtime-config against a real server: a disabled group version leaves discovery (legacy and
 * aggregated), OpenAPI v2 and v3 and the local APIServices, and its paths answer 404; a single
 * resource can be turned off; api/alpha=true serves the alpha versions kube leaves off by default.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, type ServerFixture } from '../support/server.js';

const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const fx = useServer({}, ['--runtime-config=batch/v1=false,apps/v1/daemonsets=false,api/alpha=true']);
const plain = useServer();
// Groups whose storage providers carry kube post-start hooks, and the CRD API, turned off.
const trimmed = useServer({}, [
  '--runtime-config=scheduling.k8s.io/v1=false,flowcontrol.apiserver.k8s.io/v1=false,apiextensions.k8s.io/v1=false',
  '--enable-priority-and-fairness=false',
  '--disable-admission-plugins=Priority',
]);

async function groupVersions(f: ServerFixture): Promise<string[]> {
  const apis = (await f.request('GET', '/apis')).json();
  return apis.groups.flatMap((g: any) => g.versions.map((v: any) => v.groupVersion));
}

describe('--runtime-config=batch/v1=false', () => {
  it('removes batch from /apis and aggregated discovery', async () => {
    assert.ok(!(await groupVersions(fx)).some((gv) => gv.startsWith('batch/')));
    const doc = (await fx.request('GET', '/apis', { headers: { accept: aggregated } })).json();
    assert.equal(doc.items.find((i: any) => i.metadata.name === 'batch'), undefined);
    assert.ok(doc.items.find((i: any) => i.metadata.name === 'apps'));
  });

  it('removes batch/v1 from /openapi/v2 and /openapi/v3', async () => {
    const v3 = (await fx.request('GET', '/openapi/v3')).json();
    assert.equal(v3.paths['apis/batch/v1'], undefined);
    assert.ok(v3.paths['apis/apps/v1']);
    assert.equal((await fx.request('GET', '/openapi/v3/apis/batch/v1')).status, 404);
    const v2 = (await fx.request('GET', '/openapi/v2')).json();
    assert.ok(!Object.keys(v2.paths).some((p) => p.startsWith('/apis/batch/')));
    assert.ok(Object.keys(v2.paths).some((p) => p.startsWith('/apis/apps/v1/')));
  });

  it("answers kube's plain-text 404 for the group, the version and its resources", async () => {
    const create = await fx.request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' } } });
    for (const r of [
      await fx.request('GET', '/apis/batch'),
      await fx.request('GET', '/apis/batch/v1'),
      await fx.request('GET', '/apis/batch/v1/namespaces/default/jobs'),
      await fx.request('GET', '/apis/batch/v1/watch/jobs'),
      create,
    ]) {
      assert.equal(r.status, 404);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(r.text, '404 page not found\n');
    }
    // Inside a served group version an unknown resource is go-restful's Status, as in kube.
    const unknown = await fx.request('GET', '/apis/apps/v1/namespaces/default/daemonsets');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().message, 'the server could not find the requested resource');
    assert.equal((await plain.request('GET', '/apis/batch/v1/namespaces/default/jobs')).status, 200);
  });

  it('registers no local APIService for it', async () => {
    const services = (await fx.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices')).json();
    const names = services.items.map((s: any) => s.metadata.name);
    assert.ok(names.includes('v1.apps'));
    assert.ok(!names.includes('v1.batch'));
    assert.ok(names.includes('v1alpha1.storagemigration.k8s.io'));
  });
});

describe('--runtime-config=apps/v1/daemonsets=false', () => {
  it('serves the rest of apps/v1 without daemonsets', async () => {
    const apps = (await fx.request('GET', '/apis/apps/v1')).json();
    const names = apps.resources.map((r: any) => r.name);
    assert.ok(names.includes('deployments'));
    assert.ok(!names.some((n: string) => n.startsWith('daemonsets')));
    assert.equal((await fx.request('GET', '/apis/apps/v1/namespaces/default/daemonsets')).json().reason, 'NotFound');
    assert.equal((await fx.request('GET', '/apis/apps/v1/namespaces/default/deployments')).status, 200);
  });
});

describe('alpha APIs', () => {
  it('are off by default, as in kube 1.33', async () => {
    const gvs = await groupVersions(plain);
    for (const gv of ['storagemigration.k8s.io/v1alpha1', 'coordination.k8s.io/v1alpha2', 'coordination.k8s.io/v1beta1', 'admissionregistration.k8s.io/v1alpha1', 'internal.apiserver.k8s.io/v1alpha1', 'networking.k8s.io/v1beta1']) {
      assert.ok(!gvs.includes(gv), gv);
    }
    assert.ok(gvs.includes('coordination.k8s.io/v1'));
    assert.equal((await plain.request('GET', '/apis/storagemigration.k8s.io/v1alpha1/storageversionmigrations')).status, 404);
  });

  it('api/alpha=true serves them (beta stays off), and they store and read back', async () => {
    const gvs = await groupVersions(fx);
    for (const gv of ['storagemigration.k8s.io/v1alpha1', 'coordination.k8s.io/v1alpha2', 'admissionregistration.k8s.io/v1alpha1', 'internal.apiserver.k8s.io/v1alpha1']) {
      assert.ok(gvs.includes(gv), gv);
    }
    assert.ok(!gvs.includes('coordination.k8s.io/v1beta1'));
    // LeaseCandidates are stored as v1beta1 (kube's storage version) even while only v1alpha2 is served.
    const path = '/apis/coordination.k8s.io/v1alpha2/namespaces/default/leasecandidates';
    const body = { apiVersion: 'coordination.k8s.io/v1alpha2', kind: 'LeaseCandidate', metadata: { name: 'c' }, spec: { leaseName: 'l', binaryVersion: '1.33.0', strategy: 'OldestEmulationVersion' } };
    const created = await fx.request('POST', path, { body });
    assert.equal(created.status, 201, created.text);
    const read = (await fx.request('GET', `${path}/c`)).json();
    assert.equal(read.apiVersion, 'coordination.k8s.io/v1alpha2');
    assert.equal(read.spec.leaseName, 'l');
  });
});

describe('in-server pieces of a disabled group', () => {
  it('are left out with it: the server is ready without their post-start hooks', async () => {
    const readyz = await trimmed.request('GET', '/readyz?verbose');
    assert.equal(readyz.status, 200, readyz.text);
    assert.ok(!readyz.text.includes('scheduling/bootstrap-system-priority-classes'));
    assert.ok(!readyz.text.includes('priority-and-fairness-config-producer'));
    assert.ok(readyz.text.includes('[+]poststarthook/rbac/bootstrap-roles') || readyz.text.includes('[+]poststarthook/start-apiextensions-controllers'));
    assert.ok((await plain.request('GET', '/readyz?verbose')).text.includes('[+]poststarthook/scheduling/bootstrap-system-priority-classes ok'));
    assert.equal((await trimmed.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).status, 404);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    assert.equal((await trimmed.request('POST', '/api/v1/namespaces/default/pods', { body: pod })).status, 201);
  });
});
