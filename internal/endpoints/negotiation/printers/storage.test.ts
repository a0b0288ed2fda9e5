/** persistentvolumes, persistentvolumeclaims and storageclasses: columns and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter } from './storage.js';
import { ago, columnSpec, day, now } from './testing.js';

describe('persistentvolumes', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(persistentVolumePrinter), [
      ['Name', 'string', 'name', 0],
      ['Capacity', 'string', '', 0],
      ['Access Modes', 'string', '', 0],
      ['Reclaim Policy', 'string', '', 0],
      ['Status', 'string', '', 0],
      ['Claim', 'string', '', 0],
      ['StorageClass', 'string', '', 0],
      ['VolumeAttributesClass', 'string', '', 0],
      ['Reason', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['VolumeMode', 'string', '', 1],
    ]);
  });
  it('print a bound volume', () => {
    const pv = {
      metadata: { name: 'pv-1', creationTimestamp: ago(4 * day) },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'default', name: 'data' },
        storageClassName: 'standard',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    };
    assert.deepEqual(persistentVolumePrinter.cells(pv, now), ['pv-1', '10Gi', 'RWO,RWX', 'Retain', 'Bound', 'default/data', 'standard', '<unset>', '', '4d', 'Filesystem']);
  });
  it('print Terminating, the beta class annotation, the reason and the attributes class', () => {
    const pv = {
      metadata: { name: 'pv-2', deletionTimestamp: ago(1), annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } },
      spec: { accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'], storageClassName: 'standard', volumeAttributesClassName: 'gold' },
      status: { phase: 'Failed', reason: 'RecyclerFailed' },
    };
    assert.deepEqual(persistentVolumePrinter.cells(pv, now), ['pv-2', '0', 'ROX,RWOP', '', 'Terminating', '', 'legacy', 'gold', 'RecyclerFailed', '<unknown>', '<unset>']);
  });
});

describe('persistentvolumeclaims', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(persistentVolumeClaimPrinter), [
      ['Name', 'string', 'name', 0],
      ['Status', 'string', '', 0],
      ['Volume', 'string', '', 0],
      ['Capacity', 'string', '', 0],
      ['Access Modes', 'string', '', 0],
      ['StorageClass', 'string', '', 0],
      ['VolumeAttributesClass', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['VolumeMode', 'string', '', 1],
    ]);
  });
  it('print a bound claim with the capacity and modes of its volume', () => {
    const pvc = {
      metadata: { name: 'data', creationTimestamp: ago(4 * day) },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } }, storageClassName: 'standard', volumeName: 'pv-1', volumeMode: 'Block' },
      status: { phase: 'Bound', accessModes: ['ReadWriteOnce', 'ReadWriteMany'], capacity: { storage: '10Gi' } },
    };
    assert.deepEqual(persistentVolumeClaimPrinter.cells(pvc, now), ['data', 'Bound', 'pv-1', '10Gi', 'RWO,RWX', 'standard', '<unset>', '4d', 'Block']);
  });
  it('print a pending claim without capacity or modes', () => {
    const pvc = { metadata: { name: 'wait', annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } }, spec: { resources: { requests: { storage: '1Gi' } }, storageClassName: 'new' }, status: { phase: 'Pending' } };
    assert.deepEqual(persistentVolumeClaimPrinter.cells(pvc, now), ['wait', 'Pending', '', '', '', 'old', '<unset>', '<unknown>', '<unset>']);
    assert.equal(persistentVolumeClaimPrinter.cells({ metadata: { name: 'x', deletionTimestamp: ago(3) }, spec: {} }, now)[1], 'Terminating');
  });
});

describe('storageclasses', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(storageClassPrinter), [
      ['Name', 'string', 'name', 0],
      ['Provisioner', 'string', '', 0],
      ['ReclaimPolicy', 'string', '', 0],
      ['VolumeBindingMode', 'string', '', 0],
      ['AllowVolumeExpansion', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });
  it('mark the default class and print the defaults of unset fields', () => {
    const sc = { metadata: { name: 'standard', creationTimestamp: ago(day), annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'rancher.io/local-path' };
    assert.deepEqual(storageClassPrinter.cells(sc, now), ['standard (default)', 'rancher.io/local-path', 'Delete', 'Immediate', false, '24h']);
    const beta = { metadata: { name: 'fast', annotations: { 'storageclass.beta.kubernetes.io/is-default-class': 'true' } }, provisioner: 'csi.example.com', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true };
    assert.deepEqual(storageClassPrinter.cells(beta, now), ['fast (default)', 'csi.example.com', 'Retain', 'WaitForFirstConsumer', true, '<unknown>']);
    assert.equal(storageClassPrinter.cells({ metadata: { name: 'x', annotations: { 'storageclass.kubernetes.io/is-default-class': 'True' } } }, now)[0], 'x');
  });
});
