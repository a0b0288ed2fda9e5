import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { StatusError } from '../apierrors/status-error.js';
import { ApplyConflictError, applyObject, managerFromUserAgent, typeResolverForBuiltins, updateManagedFields, type ManagedFieldsEntry } from './managed-fields.js';
import { managerOrUserAgent } from './user-agent.js';

const resolver = typeResolverForBuiltins();
const deployments = { group: 'apps', version: 'v1', kind: 'Deployment' };
const pods = { group: '', version: 'v1', kind: 'Pod' };
const t0 = new Date('2025-03-01T10:00:00.250Z');
const t1 = new Date('2025-03-01T10:05:00.900Z');
const t2 = new Date('2025-03-01T10:10:00Z');

function deployment(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', ...meta }, spec };
}

/** What the store would persist: the object with its identity. */
function stored(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, uid: '6a1c0b51-0000-4000-8000-000000000001', resourceVersion: '7' } };
}

function entries(obj: KubeObject): ManagedFieldsEntry[] {
  return (obj.metadata.managedFields ?? []) as ManagedFieldsEntry[];
}

function entry(obj: KubeObject, manager: string, operation = 'Update'): ManagedFieldsEntry {
  const e = entries(obj).find((x) => x.manager === manager && x.operation === operation);
  assert.ok(e, `no ${operation} entry for ${manager} in ${JSON.stringify(obj.metadata.managedFields)}`);
  return e;
}

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
};

describe('updateManagedFields (create, PUT, patches)', () => {
  it('records the creator of a Deployment as kube does (structs of the zero object are not members, zero structs are owned)', () => {
    const obj = deployment(
      { replicas: 1, selector: { matchLabels: { app: 'web' } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } }, template },
      { labels: { app: 'web' } },
    );
    const out = updateManagedFields(resolver, deployments, undefined, obj, 'kubectl-create', '', t0);
    assert.deepEqual(out.metadata.managedFields, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2025-03-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} },
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} } } },
            },
          },
        },
      },
    ]);
    assert.equal(JSON.stringify(entry(out, 'kubectl-create').fieldsV1).startsWith('{"f:metadata":{"f:labels":{".":{},"f:app":{}}}'), true);
    assert.equal(obj.metadata.managedFields, undefined, 'the input is not mutated');
  });

  it('gives a PUT the fields it changed, takes them from the previous owner and stamps only the writer', () => {
    const created = stored(updateManagedFields(resolver, deployments, undefined, deployment({ replicas: 1, selector: { matchLabels: { app: 'web' } }, template }), 'creator', '', t0));
    const next = deployment({ replicas: 5, selector: { matchLabels: { app: 'web' } }, template });
    const out = updateManagedFields(resolver, deployments, created, next, 'scaler', '', t1);
    const creator = entry(out, 'creator');
    const scaler = entry(out, 'scaler');
    assert.equal(creator.time, '2025-03-01T10:00:00Z');
    assert.equal(scaler.time, '2025-03-01T10:05:00Z');
    assert.deepEqual(scaler.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.equal(JSON.stringify(creator.fieldsV1).includes('f:replicas'), false);
    assert.deepEqual(entries(out).map((e) => e.manager), ['creator', 'scaler'], 'sorted by time');
  });

  it('leaves the entries alone when a write changes nothing', () => {
    const created = stored(updateManagedFields(resolver, deployments, undefined, deployment({ replicas: 1, selector: { matchLabels: { app: 'web' } }, template }), 'creator', '', t0));
    const out = updateManagedFields(resolver, deployments, created, { ...created, metadata: { ...created.metadata, managedFields: undefined } }, 'someone-else', '', t1);
    assert.deepEqual(out.metadata.managedFields, created.metadata.managedFields);
  });

  it('keeps a separate entry for the status subresource', () => {
    const created = stored(updateManagedFields(resolver, deployments, undefined, deployment({ replicas: 1, selector: { matchLabels: { app: 'web' } }, template }), 'creator', '', t0));
    const withStatus = { ...created, status: { replicas: 1, readyReplicas: 1 } };
    const out = updateManagedFields(resolver, deployments, created, withStatus, 'deployment-controller', 'status', t1);
    const e = entry(out, 'deployment-controller');
    assert.equal(e.subresource, 'status');
    assert.deepEqual(e.fieldsV1, { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } });
    assert.deepEqual(Object.keys(e), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
  });

  it('ignores managedFields sent to a subresource, honours them on the main resource, and resets on []', () => {
    const created = stored(updateManagedFields(resolver, deployments, undefined, deployment({ replicas: 1, selector: { matchLabels: { app: 'web' } }, template }), 'creator', '', t0));
    const forged: ManagedFieldsEntry[] = [{ manager: 'forged', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } }];
    const viaStatus = updateManagedFields(resolver, deployments, created, { ...created, metadata: { ...created.metadata, managedFields: forged } }, 'x', 'status', t1);
    assert.deepEqual(viaStatus.metadata.managedFields, created.metadata.managedFields);
    const viaMain = updateManagedFields(resolver, deployments, created, { ...created, metadata: { ...created.metadata, managedFields: forged } }, 'x', '', t1);
    assert.deepEqual(viaMain.metadata.managedFields, forged);
    const reset = updateManagedFields(resolver, deployments, created, { ...created, metadata: { ...created.metadata, managedFields: [] } }, 'x', '', t1);
    assert.equal(reset.metadata.managedFields, undefined, 'kube stops tracking an object whose managedFields were reset');
  });

  it('keeps the live managedFields when the new object does not fit the schema', () => {
    const created = stored(updateManagedFields(resolver, pods, undefined, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } }, 'creator', '', t0));
    const bad = { ...created, spec: { containers: [{ name: 'c', image: 'i' }], nonsense: true } };
    const out = updateManagedFields(resolver, pods, created, bad, 'x', '', t1);
    assert.deepEqual(out.metadata.managedFields, created.metadata.managedFields);
  });

  it('merges the oldest of more than ten update managers into ancient-changes', () => {
    let live = stored(updateManagedFields(resolver, deployments, undefined, deployment({ replicas: 1, selector: { matchLabels: { app: 'web' } }, template }), 'creator', '', t0));
    for (let i = 0; i < 11; i++) {
      const next = { ...live, metadata: { ...live.metadata, managedFields: undefined, labels: { ...(live.metadata.labels ?? {}), [`l${i}`]: 'x' } } };
      live = stored(updateManagedFields(resolver, deployments, live, next, `writer-${String(i).padStart(2, '0')}`, '', new Date(t1.getTime() + i * 1000)));
    }
    const names = entries(live).map((e) => e.manager);
    assert.equal(names.length, 10);
    assert.ok(names.includes('ancient-changes'));
    assert.ok(!names.includes('creator') && !names.includes('writer-00') && !names.includes('writer-01') && names.includes('writer-02'));
    const ancient = entry(live, 'ancient-changes');
    assert.equal(ancient.time, '2025-03-01T10:05:01Z', 'the bucket takes the time of the newest update merged into it');
    assert.ok(JSON.stringify(ancient.fieldsV1).includes('f:l0') && JSON.stringify(ancient.fieldsV1).includes('f:replicas'));
  });
});

describe('applyObject (server-side apply)', () => {
  const base = deployment({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template });

  it('creates a missing object from the configuration (over the zero object, as kube does), owned by the applier', () => {
    const out = applyObject(resolver, deployments, undefined, base, 'manager-a', false, '', t0);
    const { managedFields, ...meta } = out.metadata;
    const spec = base['spec'] as Record<string, unknown>;
    const containers = [{ name: 'nginx', image: 'nginx:1.27' }];
    assert.deepEqual(
      { ...out, metadata: meta },
      { ...base, spec: { ...spec, strategy: {}, template: { metadata: template.metadata, spec: { containers } } }, status: {} },
    );
    assert.deepEqual(managedFields, [
      {
        manager: 'manager-a',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2025-03-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
            },
          },
        },
      },
    ]);
  });

  it('lets two appliers share a value, and reports a changed value as a conflict with kube text and causes', () => {
    const a = stored(applyObject(resolver, deployments, undefined, base, 'manager-a', false, '', t0));
    const b = stored(applyObject(resolver, deployments, a, deployment({ replicas: 2 }), 'manager-b', false, '', t1));
    assert.deepEqual(entry(b, 'manager-b', 'Apply').fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.ok(JSON.stringify(entry(b, 'manager-a', 'Apply').fieldsV1).includes('f:replicas'), 'shared ownership');
    assert.throws(
      () => applyObject(resolver, deployments, b, deployment({ replicas: 3 }), 'manager-c', false, '', t2),
      (err: unknown) => {
        assert.ok(err instanceof ApplyConflictError && err instanceof StatusError);
        assert.equal(err.code, 409);
        assert.equal(err.reason, 'Conflict');
        assert.equal(err.message, 'Apply failed with 2 conflicts: conflicts with "manager-a":\n- .spec.replicas\nconflicts with "manager-b":\n- .spec.replicas');
        assert.deepEqual(err.status.details?.causes, [
          { reason: 'FieldManagerConflict', message: 'conflict with "manager-a"', field: '.spec.replicas' },
          { reason: 'FieldManagerConflict', message: 'conflict with "manager-b"', field: '.spec.replicas' },
        ]);
        assert.deepEqual(err.conflicts, [
          { manager: 'manager-a', field: '.spec.replicas' },
          { manager: 'manager-b', field: '.spec.replicas' },
        ]);
        return true;
      },
    );
  });

  it('names an update manager with its version, singular for one conflict', () => {
    const created = stored(updateManagedFields(resolver, deployments, undefined, base, 'manager-a', '', t0));
    assert.throws(
      () => applyObject(resolver, deployments, created, deployment({ replicas: 3 }), 'applier', false, '', t1),
      (err: unknown) => {
        assert.ok(err instanceof ApplyConflictError);
        assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "manager-a" using apps/v1: .spec.replicas');
        assert.deepEqual(err.status.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "manager-a" using apps/v1', field: '.spec.replicas' }]);
        return true;
      },
    );
    const multi = stored(updateManagedFields(resolver, deployments, created, deployment({ replicas: 2, paused: true, selector: { matchLabels: { app: 'web' } }, template }, { uid: created.metadata.uid }), 'manager-a', '', t1));
    assert.throws(
      () => applyObject(resolver, deployments, multi, deployment({ replicas: 4, paused: false }), 'applier', false, '', t2),
      (err: unknown) => err instanceof ApplyConflictError && err.message === 'Apply failed with 2 conflicts: conflicts with "manager-a" using apps/v1:\n- .spec.paused\n- .spec.replicas',
    );
  });

  it('takes ownership with force and removes the field from the previous owner', () => {
    const created = stored(updateManagedFields(resolver, deployments, undefined, base, 'manager-a', '', t0));
    const out = applyObject(resolver, deployments, created, deployment({ replicas: 3 }), 'applier', true, '', t1);
    assert.equal((out['spec'] as { replicas: number }).replicas, 3);
    assert.deepEqual(entry(out, 'applier', 'Apply').fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.equal(JSON.stringify(entry(out, 'manager-a').fieldsV1).includes('f:replicas'), false);
    assert.deepEqual(entries(out).map((e) => `${e.operation}:${e.manager}`), ['Apply:applier', 'Update:manager-a'], 'Apply entries sort first');
  });

  it('removes fields the applier no longer applies, unless another manager owns them', () => {
    const first = stored(applyObject(resolver, deployments, undefined, deployment({ replicas: 2, paused: true }, { labels: { a: '1', b: '2' } }), 'applier', false, '', t0));
    const other = stored(applyObject(resolver, deployments, first, deployment({}, { labels: { b: '2' } }), 'other', false, '', t1));
    const second = applyObject(resolver, deployments, other, deployment({ replicas: 2 }), 'applier', false, '', t2);
    assert.deepEqual(second.metadata.labels, { b: '2' }, 'label a is gone, label b is still owned by other');
    assert.equal((second['spec'] as Record<string, unknown>)['paused'], undefined);
    assert.deepEqual(entry(second, 'applier', 'Apply').fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });

  it('gives fields set before the first apply to before-first-apply', () => {
    const untracked = stored(deployment({ replicas: 1, paused: true }));
    const out = applyObject(resolver, deployments, untracked, deployment({ replicas: 1 }), 'applier', false, '', t0);
    assert.deepEqual(entry(out, 'before-first-apply').fieldsV1, { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } });
    assert.deepEqual(entry(out, 'applier', 'Apply').fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });

  it('does not restamp an apply that changes nothing', () => {
    const first = stored(applyObject(resolver, deployments, undefined, base, 'applier', false, '', t0));
    const again = applyObject(resolver, deployments, first, base, 'applier', false, '', t1);
    assert.equal(entry(again, 'applier', 'Apply').time, '2025-03-01T10:00:00Z');
  });

  it('applies to the status subresource under its own entry', () => {
    const first = stored(applyObject(resolver, deployments, undefined, base, 'applier', false, '', t0));
    const status = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, status: { replicas: 2 } };
    const out = applyObject(resolver, deployments, first, status as KubeObject, 'controller', false, 'status', t1, { resetFields: [['spec'], ['metadata']] });
    const e = entry(out, 'controller', 'Apply');
    assert.equal(e.subresource, 'status');
    assert.deepEqual(e.fieldsV1, { 'f:status': { 'f:replicas': {} } });
  });

  it('answers 400 for configurations kube rejects', () => {
    const bad = (obj: KubeObject, message: RegExp) =>
      assert.throws(() => applyObject(resolver, deployments, undefined, obj, 'applier', false, '', t0), (err: unknown) => err instanceof StatusError && err.code === 400 && message.test(err.message));
    bad({ ...base, apiVersion: 'apps/v1beta1' }, /^invalid object type: apps\/v1beta1, Kind=Deployment$/);
    bad({ ...base, metadata: { ...base.metadata, managedFields: [] } }, /^metadata\.managedFields must be nil$/);
    bad(deployment({ template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } }), /^failed to create typed patch object \(default\/web; apps\/v1, Kind=Deployment\): \.spec\.template\.spec\.containers: duplicate entries for key \[name="a"\]$/);
    bad(deployment({ replicas: 'two' }), /\.spec\.replicas: expected numeric \(int or float\), got string$/);
  });

  it('lets kubectl take over fields from its client-side apply without conflicts, and keeps the annotation current', () => {
    const csa = deployment({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template });
    const annotation = JSON.stringify(csa);
    const created = stored(updateManagedFields(resolver, deployments, undefined, { ...csa, metadata: { ...csa.metadata, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': annotation } } }, 'kubectl-client-side-apply', '', t0));
    const next = deployment({ replicas: 3, selector: { matchLabels: { app: 'web' } }, template });
    const out = applyObject(resolver, deployments, created, next, 'kubectl', false, '', t1);
    assert.equal((out['spec'] as { replicas: number }).replicas, 3);
    const written = out.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '';
    assert.ok(written.endsWith('\n'));
    assert.deepEqual(JSON.parse(written), next);
    assert.throws(() => applyObject(resolver, deployments, created, next, 'someone-else', false, '', t1), ApplyConflictError);
  });
});

describe('managerFromUserAgent', () => {
  it('takes the User-Agent up to the first slash, printable characters only, at most 128 bytes', () => {
    assert.equal(managerFromUserAgent('kubectl/v1.32.0 (linux/amd64) kubernetes/abc'), 'kubectl');
    assert.equal(managerFromUserAgent('kube-controller-manager/v1.33.0 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:deployment-controller'), 'kube-controller-manager');
    assert.equal(managerFromUserAgent('Go-http-client/1.1'), 'Go-http-client');
    assert.equal(managerFromUserAgent('my\u0007agent'), 'myagent');
    assert.equal(managerFromUserAgent('x'.repeat(200)), 'x'.repeat(128));
    assert.equal(managerFromUserAgent(''), '');
    assert.equal(managerOrUserAgent('explicit', 'kubectl/v1.32'), 'explicit');
    assert.equal(managerOrUserAgent(undefined, 'kubectl/v1.32'), 'kubectl');
  });
});
