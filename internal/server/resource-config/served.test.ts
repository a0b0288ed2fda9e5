import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureGates } from '../../features/interface.js';
import { createLogger } from '../../observability/logging.js';
import type { ResourceRegistration } from '../../registry/registration.js';
import { resolveRuntimeConfig } from './runtime-config.js';
import { servedRegistrations } from './served.js';

const reg = (group: string, version: string, resource: string): ResourceRegistration =>
  ({ group, version, resource, namespaced: false, main: {}, subresources: {}, selectableFields: {} }) as unknown as ResourceRegistration;

const required = [
  reg('', 'v1', 'namespaces'),
  reg('', 'v1', 'services'),
  reg('', 'v1', 'endpoints'),
  reg('discovery.k8s.io', 'v1', 'endpointslices'),
  reg('coordination.k8s.io', 'v1', 'leases'),
  reg('apiregistration.k8s.io', 'v1', 'apiservices'),
];
const all = [
  ...required,
  reg('batch', 'v1', 'jobs'),
  reg('coordination.k8s.io', 'v1beta1', 'leasecandidates'),
  reg('certificates.k8s.io', 'v1beta1', 'clustertrustbundles'),
  reg('resource.k8s.io', 'v1beta1', 'resourceclaims'),
];
const gatesOff: FeatureGates = { enabled: () => false };
const gatesOn: FeatureGates = { enabled: () => true };
const config = (s: string) => resolveRuntimeConfig(new Map(s ? s.split(',').map((p) => p.split('=') as [string, string]) : []), { enablePriorityAndFairness: true });
const names = (rs: ResourceRegistration[]) => rs.map((r) => `${r.group}/${r.version}/${r.resource}`).slice(required.length);

describe('servedRegistrations', () => {
  const log = createLogger(0, true);
  it('serves what the config enables: defaults leave beta out', () => {
    assert.deepEqual(names(servedRegistrations(all, config(''), gatesOn, log)), ['batch/v1/jobs']);
    assert.deepEqual(names(servedRegistrations(all, config('batch/v1=false,api/beta=true'), gatesOn, log)), [
      'coordination.k8s.io/v1beta1/leasecandidates',
      'certificates.k8s.io/v1beta1/clustertrustbundles',
      'resource.k8s.io/v1beta1/resourceclaims',
    ]);
  });

  it('leaves out a resource whose feature gate is off, even when enabled', () => {
    assert.deepEqual(names(servedRegistrations(all, config('api/beta=true'), gatesOff, log)), ['batch/v1/jobs', 'coordination.k8s.io/v1beta1/leasecandidates']);
  });

  it('refuses to leave out what Capstan cannot run without', () => {
    assert.throws(() => servedRegistrations(all, config('/v1/namespaces=false'), gatesOn, log), {
      message: '--runtime-config: namespaces (v1) cannot be disabled: Capstan needs it for the namespace lifecycle and the system namespaces',
    });
    assert.throws(() => servedRegistrations(all, config('coordination.k8s.io/v1=false'), gatesOn, log), /leases \(coordination.k8s.io\/v1\) cannot be disabled/);
  });
});
