import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { initIPFamilyFields, type ClusterIPFamilies } from './ip-families.js';

const single: ClusterIPFamilies = { configured: new Set(['IPv4']), defaultFamily: 'IPv4' };
const dual: ClusterIPFamilies = { configured: new Set(['IPv4', 'IPv6']), defaultFamily: 'IPv4' };
const init = (spec: Record<string, unknown>, cluster: ClusterIPFamilies, old?: Record<string, unknown>) => {
  const errs = initIPFamilyFields(spec, old, cluster).map(fieldErrorMessage);
  return { spec, errs };
};

describe('initIPFamilyFields', () => {
  it('defaults policy and families', () => {
    assert.deepEqual(init({ selector: { a: 'b' } }, single).spec, { selector: { a: 'b' }, ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    assert.deepEqual(init({ ipFamilyPolicy: 'PreferDualStack', selector: { a: 'b' } }, dual).spec.ipFamilies, ['IPv4', 'IPv6']);
    assert.deepEqual(init({ ipFamilyPolicy: 'PreferDualStack', selector: { a: 'b' } }, single).spec.ipFamilies, ['IPv4']);
    assert.deepEqual(init({ ipFamilies: ['IPv6'], ipFamilyPolicy: 'RequireDualStack', selector: { a: 'b' } }, dual).spec.ipFamilies, ['IPv6', 'IPv4']);
    assert.deepEqual(init({ clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] }, dual).spec.ipFamilies, ['IPv6']);
  });

  it('headless without selector defaults to RequireDualStack and any family', () => {
    const { spec } = init({ clusterIP: 'None', clusterIPs: ['None'] }, single);
    assert.equal(spec.ipFamilyPolicy, 'RequireDualStack');
    assert.deepEqual(spec.ipFamilies, ['IPv4', 'IPv6']);
  });

  it('refuses with kube messages', () => {
    assert.deepEqual(init({ ipFamilyPolicy: 'RequireDualStack', selector: { a: 'b' } }, single).errs, [
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
    assert.deepEqual(init({ ipFamilies: ['IPv6'], selector: { a: 'b' } }, single).errs, ['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster']);
    assert.deepEqual(init({ clusterIP: 'fd00::5', clusterIPs: ['fd00::5'], selector: { a: 'b' } }, single).errs, [
      'spec.clusterIPs[0]: Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster',
    ]);
    assert.deepEqual(init({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'], selector: { a: 'b' } }, dual).errs, [
      "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
    ]);
    assert.deepEqual(init({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv6'] }, dual).errs, [
      'spec.clusterIPs[0]: Invalid value: "10.0.0.5": expected an IPv6 value as indicated by `ipFamilies[0]`',
    ]);
  });

  it('update: SingleStack downgrades, other policies may not drop a family', () => {
    const old = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack', selector: { a: 'b' } };
    const down = init({ ...structuredClone(old), ipFamilyPolicy: 'SingleStack' }, dual, old);
    assert.deepEqual(down.errs, []);
    assert.deepEqual(down.spec.clusterIPs, ['10.0.0.5']);
    assert.deepEqual(down.spec.ipFamilies, ['IPv4']);
    assert.deepEqual(init({ ...structuredClone(old), clusterIPs: ['10.0.0.5'], ipFamilyPolicy: 'PreferDualStack' }, dual, old).errs, [
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be 'SingleStack' to release the secondary cluster IP",
    ]);
    const oldSingle = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', selector: { a: 'b' } };
    assert.deepEqual(init({ ...structuredClone(oldSingle), ipFamilyPolicy: 'RequireDualStack' }, dual, oldSingle).spec.ipFamilies, ['IPv4', 'IPv6']);
  });
});
