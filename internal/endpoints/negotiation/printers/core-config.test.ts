/** Namespaces, configmaps, secrets, serviceaccounts and leases: columns and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leasePrinter } from './coordination.js';
import { configMapPrinter, namespacePrinter, secretPrinter, serviceAccountPrinter } from './core-config.js';
import { ago, columnSpec, day, now } from './testing.js';

const meta = (name: string): Record<string, unknown> => ({ name, creationTimestamp: ago(2 * day + 3 * 3600) });

describe('namespaces', () => {
  it('have kube columns and print the phase', () => {
    assert.deepEqual(columnSpec(namespacePrinter), [
      ['Name', 'string', 'name', 0],
      ['Status', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    assert.deepEqual(namespacePrinter.cells({ metadata: meta('kube-system'), status: { phase: 'Active' } }, now), ['kube-system', 'Active', '2d3h']);
    assert.deepEqual(namespacePrinter.cells({ metadata: meta('gone'), status: { phase: 'Terminating' } }, now), ['gone', 'Terminating', '2d3h']);
  });
});

describe('configmaps', () => {
  it('have kube columns and count data and binaryData keys', () => {
    assert.deepEqual(columnSpec(configMapPrinter), [
      ['Name', 'string', 'name', 0],
      ['Data', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    const cm = { metadata: meta('settings'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } };
    assert.deepEqual(configMapPrinter.cells(cm, now), ['settings', 3, '2d3h']);
    assert.deepEqual(configMapPrinter.cells({ metadata: meta('empty') }, now), ['empty', 0, '2d3h']);
  });
});

describe('secrets', () => {
  it('have kube columns and print type and key count', () => {
    assert.deepEqual(columnSpec(secretPrinter), [
      ['Name', 'string', 'name', 0],
      ['Type', 'string', '', 0],
      ['Data', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    const s = { metadata: meta('tls'), type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==', 'tls.key': 'eQ==' } };
    assert.deepEqual(secretPrinter.cells(s, now), ['tls', 'kubernetes.io/tls', 2, '2d3h']);
  });
});

describe('serviceaccounts', () => {
  it('have kube columns and count secrets', () => {
    assert.deepEqual(columnSpec(serviceAccountPrinter), [
      ['Name', 'string', 'name', 0],
      ['Secrets', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    assert.deepEqual(serviceAccountPrinter.cells({ metadata: meta('default') }, now), ['default', 0, '2d3h']);
    assert.deepEqual(serviceAccountPrinter.cells({ metadata: meta('builder'), secrets: [{ name: 'a' }, { name: 'b' }] }, now), ['builder', 2, '2d3h']);
  });
});

describe('leases', () => {
  it('have kube columns and print the holder', () => {
    assert.deepEqual(columnSpec(leasePrinter), [
      ['Name', 'string', 'name', 0],
      ['Holder', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    const lease = { metadata: meta('kube-scheduler'), spec: { holderIdentity: 'node-1_5e1c', leaseDurationSeconds: 15 } };
    assert.deepEqual(leasePrinter.cells(lease, now), ['kube-scheduler', 'node-1_5e1c', '2d3h']);
    assert.deepEqual(leasePrinter.cells({ metadata: meta('free'), spec: {} }, now), ['free', '', '2d3h']);
  });
});
