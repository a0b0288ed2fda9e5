import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import { PodSecurityAdmission } from './admission.js';
import { loadPodSecurityConfig } from './config.js';
import { PodSecurity } from './plugin.js';
import { Evaluator } from './policy/evaluator.js';

function plugin(lookups: string[]) {
  const core = new PodSecurityAdmission(
    loadPodSecurityConfig(undefined),
    new Evaluator(),
    { recordEvaluation: () => undefined, recordExemption: () => undefined, recordError: () => undefined },
    async (name) => {
      lookups.push(name);
      return { metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/audit': 'restricted' } } };
    },
    async () => [],
  );
  return new PodSecurity(core);
}

function attrs(group: string, resource: string, object: KubeObject, annotations: Array<[string, string]>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group,
    version: 'v1',
    resource,
    subresource: '',
    kind: '',
    namespace: 'ns',
    name: object.metadata.name ?? '',
    object,
    oldObject: undefined,
    dryRun: false,
    userInfo: { name: 'u', groups: [] },
    addAnnotation: (k, v) => {
      annotations.push([k, v]);
      return undefined;
    },
  };
}

const spec = { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] };

describe('PodSecurity plugin', () => {
  it('validates creates and updates only', () => {
    const p = plugin([]);
    assert.deepEqual(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((op) => p.handles(op as never)), [true, true, false, false]);
  });

  it('leaves other resources alone without reading anything', async () => {
    const lookups: string[] = [];
    const ctx = { warnings: [] as string[] } as unknown as RequestContext;
    await plugin(lookups).validate(attrs('', 'configmaps', { metadata: { name: 'x' } }, []), ctx);
    await plugin(lookups).validate(attrs('extensions', 'deployments', { metadata: { name: 'x' }, spec: { template: { spec } } }, []), ctx);
    assert.deepEqual(lookups, []);
  });

  it('throws the refusal after recording prefixed audit annotations', async () => {
    const annotations: Array<[string, string]> = [];
    const ctx = { warnings: [] as string[] } as unknown as RequestContext;
    await assert.rejects(plugin([]).validate(attrs('', 'pods', { metadata: { name: 'p' }, spec }, annotations), ctx), /pods "p" is forbidden: violates PodSecurity "baseline:latest"/);
    assert.deepEqual(annotations.map(([k]) => k).sort(), ['pod-security.kubernetes.io/audit-violations', 'pod-security.kubernetes.io/enforce-policy']);
  });

  it('adds warnings for pod templates to the request', async () => {
    const ctx = { warnings: [] as string[] } as unknown as RequestContext;
    await plugin([]).validate(attrs('batch', 'jobs', { metadata: { name: 'j' }, spec: { template: { spec } } }, []), ctx);
    assert.deepEqual(ctx.warnings, ['would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)']);
  });
});
