/** printerFor: which resources get kube's printers, and which keep the default two columns. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printerFor } from './index.js';

describe('printerFor', () => {
  const printed: Array<[string, string, string, string]> = [
    ['', 'v1', 'pods', 'Ready'],
    ['', 'v1', 'services', 'Type'],
    ['', 'v1', 'endpoints', 'Endpoints'],
    ['', 'v1', 'nodes', 'Status'],
    ['', 'v1', 'namespaces', 'Status'],
    ['', 'v1', 'configmaps', 'Data'],
    ['', 'v1', 'secrets', 'Type'],
    ['', 'v1', 'serviceaccounts', 'Secrets'],
    ['', 'v1', 'events', 'Type'],
    ['', 'v1', 'persistentvolumes', 'Capacity'],
    ['', 'v1', 'persistentvolumeclaims', 'Status'],
    ['apps', 'v1', 'deployments', 'Ready'],
    ['apps', 'v1', 'replicasets', 'Desired'],
    ['apps', 'v1', 'statefulsets', 'Ready'],
    ['apps', 'v1', 'daemonsets', 'Desired'],
    ['batch', 'v1', 'jobs', 'Status'],
    ['batch', 'v1', 'cronjobs', 'Schedule'],
    ['discovery.k8s.io', 'v1', 'endpointslices', 'AddressType'],
    ['events.k8s.io', 'v1', 'events', 'Type'],
    ['coordination.k8s.io', 'v1', 'leases', 'Holder'],
    ['networking.k8s.io', 'v1', 'ingresses', 'Class'],
    ['storage.k8s.io', 'v1', 'storageclasses', 'Provisioner'],
    ['rbac.authorization.k8s.io', 'v1', 'rolebindings', 'Role'],
    ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'Role'],
    ['autoscaling', 'v1', 'horizontalpodautoscalers', 'Reference'],
    ['autoscaling', 'v2', 'horizontalpodautoscalers', 'Reference'],
    ['policy', 'v1', 'poddisruptionbudgets', 'Min Available'],
    ['scheduling.k8s.io', 'v1', 'priorityclasses', 'Value'],
  ];
  for (const [group, version, resource, second] of printed) {
    it(`prints ${group || 'core'}/${version} ${resource}`, () => {
      const printer = printerFor(group, version, resource);
      assert.ok(printer, 'a printer');
      assert.equal(printer.columns[1]?.name, second);
    });
  }
  it('gives v1 and v2 HPAs different printers', () => {
    assert.notEqual(printerFor('autoscaling', 'v1', 'horizontalpodautoscalers'), printerFor('autoscaling', 'v2', 'horizontalpodautoscalers'));
  });
  it('starts every printer but the events ones with the Name column', () => {
    for (const [group, version, resource] of printed) {
      const first = printerFor(group, version, resource)?.columns[0];
      if (resource === 'events') assert.equal(first?.name, 'Last Seen');
      else assert.deepEqual([first?.name, first?.format], ['Name', 'name']);
    }
  });
  it('leaves kube default-column resources to the default', () => {
    // kube serves these with rest.NewDefaultTableConvertor: Name and Created At.
    assert.equal(printerFor('rbac.authorization.k8s.io', 'v1', 'roles'), undefined);
    assert.equal(printerFor('rbac.authorization.k8s.io', 'v1', 'clusterroles'), undefined);
    assert.equal(printerFor('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'), undefined);
    assert.equal(printerFor('', 'v1', 'limitranges'), undefined);
    assert.equal(printerFor('example.com', 'v1', 'widgets'), undefined);
    assert.equal(printerFor('apps', 'v1', 'pods'), undefined);
  });
});
