import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiInstaller, ServedGroup } from '../installer.js';
import { mergedApiGroup, mergedGroups, remoteAggregatedItem, type ExternalDiscovery, type ExternalGroup } from './external.js';

const local = (group: string, versions: string[]): ServedGroup => ({ group, versions: versions.map((version) => ({ group, version, resources: [] })), preferredVersion: versions[0] as string });
const installer = { groups: () => [local('', ['v1']), local('apps', ['v1']), local('batch', ['v1']), local('toys.example.com', ['v1'])] } as unknown as ApiInstaller;

function external(groups: ExternalGroup[], priorities: Record<string, number>): ExternalDiscovery {
  return { groups: () => groups, groupPriority: (g) => priorities[g], onChange: () => undefined };
}

describe('discovery merged with extension servers', () => {
  it('orders groups by APIService priority then name, and remote versions by versionPriority then kube order', () => {
    const wardle: ExternalGroup = {
      group: 'wardle.example.com',
      groupPriority: 17500,
      versions: [
        { version: 'v1alpha1', versionPriority: 10, freshness: 'Current', resources: [] },
        { version: 'v1beta1', versionPriority: 10, freshness: 'Stale' },
        { version: 'v2', versionPriority: 5, freshness: 'Current', resources: [] },
      ],
    };
    const merged = mergedGroups(installer, external([wardle], { apps: 17800, batch: 17400, 'toys.example.com': 1000, 'wardle.example.com': 17500 }));
    assert.deepEqual(
      merged.map((g) => g.group),
      ['apps', 'wardle.example.com', 'batch', 'toys.example.com'],
    );
    assert.deepEqual(mergedApiGroup(merged[1] as (typeof merged)[number]), {
      name: 'wardle.example.com',
      versions: ['v1beta1', 'v1alpha1', 'v2'].map((v) => ({ groupVersion: `wardle.example.com/${v}`, version: v })),
      preferredVersion: { groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' },
    });
    // Only fetched versions appear in aggregated discovery.
    assert.deepEqual((remoteAggregatedItem(wardle)?.versions as Array<{ version: string }>).map((v) => v.version), ['v1alpha1', 'v2']);
  });

  it('keeps the installer order for groups without APIServices yet', () => {
    assert.deepEqual(
      mergedGroups(installer, external([], {})).map((g) => g.group),
      ['apps', 'batch', 'toys.example.com'],
    );
  });
});
