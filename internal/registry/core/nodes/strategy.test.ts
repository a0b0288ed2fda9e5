import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { requestContext } from '../shared/testing.js';
import { nodeSelectableFields, nodeStatusStrategy, nodeStrategy } from './strategy.js';

const ctx = requestContext('POST', '/api/v1/nodes');
const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const node = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'n1' },
  spec,
  ...(status ? { status } : {}),
});

describe('node strategy', () => {
  it('keeps the status a kubelet registers with and syncs podCIDR into podCIDRs', () => {
    const obj = node({ podCIDR: '10.244.1.0/24' }, { capacity: { cpu: '4' } });
    nodeStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual(obj.status, { capacity: { cpu: '4' } });
    assert.deepEqual((obj.spec as Record<string, unknown>).podCIDRs, ['10.244.1.0/24']);
  });

  it('checks taints and podCIDRs', () => {
    assert.deepEqual(
      messages(nodeStrategy.validate(ctx, node({ taints: [{ key: 'k', effect: 'Sometimes' }, { key: 'dup', effect: 'NoSchedule' }, { key: 'dup', effect: 'NoSchedule' }] }))),
      [
        'metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        'metadata.taints[2]: Duplicate value: {"key":"dup","effect":"NoSchedule"}: taints must be unique by key and effect pair',
      ],
    );
    assert.deepEqual(messages(nodeStrategy.validate(ctx, node({ podCIDRs: ['10.0.0.0/33'] }))), [
      'spec.podCIDRs[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    assert.deepEqual(messages(nodeStrategy.validate(ctx, node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] }))), [
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
    ]);
  });

  it('keeps status on update and lets podCIDRs and providerID be set only once', () => {
    const old = node({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], providerID: 'aws://1' }, { phase: 'Running' });
    const next = node({ podCIDR: '10.244.2.0/24', providerID: 'aws://2', unschedulable: true }, { phase: 'Gone' });
    nodeStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, { phase: 'Running' });
    assert.deepEqual(messages(nodeStrategy.validateUpdate(ctx, next, old)), [
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
    const first = node({ podCIDR: '10.244.3.0/24' });
    nodeStrategy.prepareForUpdate(ctx, first, node({}));
    assert.deepEqual(nodeStrategy.validateUpdate(ctx, first, node({})), []);
  });

  it('nodes/status keeps spec and lets labels change', () => {
    const old: KubeObject = { metadata: { name: 'n1', labels: { a: '1' } }, spec: { unschedulable: true }, status: { phase: 'Pending' } };
    const next: KubeObject = { metadata: { name: 'n1', labels: { a: '2' } }, spec: {}, status: { phase: 'Running' } };
    nodeStatusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, { unschedulable: true });
    assert.deepEqual(next.metadata.labels, { a: '2' });
    assert.deepEqual(next.status, { phase: 'Running' });
  });

  it('selects by spec.unschedulable as "true"/"false"', () => {
    assert.deepEqual(nodeSelectableFields(node({ unschedulable: true })), { 'spec.unschedulable': 'true' });
    assert.deepEqual(nodeSelectableFields(node({})), { 'spec.unschedulable': 'false' });
    assert.equal(nodeStrategy.namespaced, false);
    assert.equal(nodeStrategy.nameValidation, 'subdomain');
  });
});
