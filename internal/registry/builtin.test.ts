import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generatedResources } from '../../api/gen/resources.js';
import { ApiInstaller } from '../endpoints/installer.js';
import type { Storage } from '../storage/interface.js';
import { builtinResourceModules } from './builtin.js';
import { namespacesModule } from './core/namespaces/store.js';
import type { ResourceRegistration } from './registration.js';

/** Resources that are not stored objects and come later. */
const virtualResources = new Set(['componentstatuses']);
/** Subresources that are not plain storage, or belong to others' work (the node agent's). */
const laterSubresources = new Set([
  'pods/log', 'nodes/proxy', 'serviceaccounts/token', 'namespaces/finalize',
]);

function registrations(): ResourceRegistration[] {
  const storage = {} as Storage;
  return [namespacesModule, ...builtinResourceModules].flatMap((m) => m({ storage, serviceClusterIPRange: '10.0.0.0/24' }));
}

describe('builtin resource modules', () => {
  it('register every resource (stored, and the review APIs) and plain-storage subresource of Kubernetes 1.33, in every served version', () => {
    const regs = registrations();
    const have = new Set(regs.map((r) => `${r.group}/${r.version}/${r.resource}`));
    const want = generatedResources.filter((r) => !virtualResources.has(r.resource)).map((r) => `${r.group}/${r.version}/${r.resource}`);
    assert.deepEqual(want.filter((k) => !have.has(k)), []);
    for (const r of generatedResources.filter((x) => virtualResources.has(x.resource))) assert.ok(!have.has(`${r.group}/${r.version}/${r.resource}`), r.resource);
    const missingSubs: string[] = [];
    for (const info of generatedResources) {
      const reg = regs.find((r) => r.group === info.group && r.version === info.version && r.resource === info.resource);
      if (!reg) continue;
      for (const sub of info.subresources) {
        if (laterSubresources.has(`${info.resource}/${sub.name}`)) continue;
        if (!reg.subresources[sub.name]) missingSubs.push(`${info.group}/${info.version}/${info.resource}/${sub.name}`);
      }
    }
    assert.deepEqual(missingSubs, []);
  });

  it('are accepted by the installer (scope, kinds and subresources agree with the API data)', () => {
    const installer = new ApiInstaller(registrations());
    assert.ok(installer.servesGroupVersion('resource.k8s.io', 'v1beta2'));
    assert.ok(installer.lookup('autoscaling', 'v1', 'horizontalpodautoscalers', 'status'));
    assert.ok(installer.lookup('', 'v1', 'replicationcontrollers', 'scale'));
    assert.ok(installer.lookup('certificates.k8s.io', 'v1', 'certificatesigningrequests', 'approval'));
  });

  it('give each version other than the storage version a conversion and the stored apiVersion', () => {
    const stored: Record<string, string> = {
      'autoscaling/horizontalpodautoscalers': 'autoscaling/v2',
      'apiextensions.k8s.io/customresourcedefinitions': 'apiextensions.k8s.io/v1beta1',
      'networking.k8s.io/ipaddresses': 'networking.k8s.io/v1beta1',
      'networking.k8s.io/servicecidrs': 'networking.k8s.io/v1beta1',
      'storage.k8s.io/volumeattributesclasses': 'storage.k8s.io/v1beta1',
      'certificates.k8s.io/clustertrustbundles': 'certificates.k8s.io/v1beta1',
      'coordination.k8s.io/leasecandidates': 'coordination.k8s.io/v1beta1',
      'admissionregistration.k8s.io/validatingadmissionpolicies': 'admissionregistration.k8s.io/v1',
      'admissionregistration.k8s.io/validatingadmissionpolicybindings': 'admissionregistration.k8s.io/v1',
      'resource.k8s.io/resourceclaims': 'resource.k8s.io/v1beta1',
      'resource.k8s.io/resourceslices': 'resource.k8s.io/v1beta1',
      'resource.k8s.io/deviceclasses': 'resource.k8s.io/v1beta1',
      'resource.k8s.io/resourceclaimtemplates': 'resource.k8s.io/v1beta1',
    };
    for (const reg of registrations()) {
      const key = `${reg.group}/${reg.resource}`;
      const storedAs = stored[key];
      if (!storedAs) continue;
      const own = `${reg.group}/${reg.version}`;
      if (own === storedAs) assert.equal(reg.conversion, undefined, `${own} ${reg.resource}`);
      else {
        assert.ok(reg.conversion, `${own} ${reg.resource} converts`);
        assert.equal(reg.storedAs?.apiVersion, storedAs, `${own} ${reg.resource} stored as`);
      }
    }
  });
});
