import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultNetworkPolicy, validateNetworkPolicy } from './strategy.js';

describe('NetworkPolicy validation and defaults', () => {
  it('derives policyTypes and defaults port protocols', () => {
    const ingressOnly: KubeObject = { metadata: { name: 'n' }, spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] } };
    defaultNetworkPolicy(ingressOnly);
    assert.deepEqual((ingressOnly.spec as Record<string, unknown>).policyTypes, ['Ingress']);
    assert.deepEqual((ingressOnly.spec as Record<string, any>).ingress[0].ports[0], { port: 80, protocol: 'TCP' });
    const both: KubeObject = { metadata: { name: 'n' }, spec: { podSelector: {}, egress: [{}] } };
    defaultNetworkPolicy(both);
    assert.deepEqual((both.spec as Record<string, unknown>).policyTypes, ['Ingress', 'Egress']);
  });

  it('checks peers, ports and policy types', () => {
    const obj: KubeObject = {
      metadata: { name: 'n' },
      spec: {
        podSelector: {},
        ingress: [{ from: [{}, { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }], ports: [{ port: 'http', endPort: 90 }, { port: 100, endPort: 90, protocol: 'ICMP' }] }],
        policyTypes: ['Ingress', 'Sideways'],
      },
    };
    assert.deepEqual(messages(validateNetworkPolicy(obj)), [
      'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[1].endPort: Invalid value: 100: must be greater than or equal to `port`',
      'spec.ingress[0].from[0]: Required value: must specify a peer',
      'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer',
      'spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
    ]);
  });
});
