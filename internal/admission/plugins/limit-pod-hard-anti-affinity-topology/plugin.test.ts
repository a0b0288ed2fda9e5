import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attrsFor, pod, testContext } from '../pod-shared/fakes.js';
import { LimitPodHardAntiAffinityTopology } from './plugin.js';

const withKey = (topologyKey: string) =>
  pod('p', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey, labelSelector: {} }] } }, containers: [] });

describe('LimitPodHardAntiAffinityTopology', () => {
  it('allows only the hostname topology key in required anti-affinity', async () => {
    const p = new LimitPodHardAntiAffinityTopology();
    await p.validate(attrsFor('CREATE', withKey('kubernetes.io/hostname')), testContext);
    await assert.rejects(p.validate(attrsFor('UPDATE', withKey('topology.kubernetes.io/zone')), testContext), {
      message: 'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
    });
  });
});
