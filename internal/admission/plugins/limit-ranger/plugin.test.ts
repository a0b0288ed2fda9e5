import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import { NamespaceIndex } from '../pod-shared/lookup.js';
import { LimitRanger } from './plugin.js';

const limitRange = (limits: unknown[], namespace = 'ns'): KubeObject => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace }, spec: { limits } });

function plugin(objects: KubeObject[], live: (ns: string) => Promise<KubeObject[]> = async () => []): LimitRanger {
  return new LimitRanger(new NamespaceIndex(new FakeInformer(objects).asInformer()), live);
}

describe('LimitRanger', () => {
  it('defaults requests and limits of containers and init containers, and says so in an annotation', async () => {
    const p = plugin([limitRange([{ type: 'Container', default: { memory: '512Mi', cpu: '1' }, defaultRequest: { cpu: '100m' } }])]);
    const obj = pod('p', {
      initContainers: [{ name: 'init', image: 'x', resources: { limits: { cpu: '2' } } }],
      containers: [{ name: 'app', image: 'x' }],
    });
    await p.admit(attrsFor('CREATE', obj), testContext);
    const spec = obj.spec as { containers: { resources: unknown }[]; initContainers: { resources: unknown }[] };
    assert.deepEqual(spec.containers[0]?.resources, { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '100m' } });
    assert.deepEqual(spec.initContainers[0]?.resources, { limits: { cpu: '2', memory: '512Mi' }, requests: { cpu: '100m' } });
    assert.equal(
      obj.metadata.annotations?.['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu request for container app; cpu, memory limit for container app; cpu request for init container init; memory limit for init container init',
    );
  });

  it('refuses containers outside min, max and ratio with kube messages, aggregated', async () => {
    const p = plugin([limitRange([{ type: 'Container', min: { cpu: '100m' }, max: { memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } }])]);
    const bad = pod('p', { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '50m' }, limits: { cpu: '1', memory: '2Gi' } } }] });
    await assert.rejects(p.validate(attrsFor('CREATE', bad), testContext), (err: Error & { status?: { code?: number } }) => {
      assert.equal(err.status?.code, 403);
      assert.equal(
        err.message,
        'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage per Container is 1Gi, but limit is 2Gi, cpu max limit to request ratio per Container is 2, but provided ratio is 20.000000]',
      );
      return true;
    });
    const noLimit = pod('q', { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '100m' } } }] });
    await assert.rejects(p.validate(attrsFor('CREATE', noLimit), testContext), /\[maximum memory usage per Container is 1Gi.  No limit is specified, cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0\]/);
  });

  it('sums containers (with sidecars) against Pod items', async () => {
    const p = plugin([limitRange([{ type: 'Pod', max: { cpu: '1' } }])]);
    const obj = pod('p', {
      initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always', resources: { limits: { cpu: '400m' } } }],
      containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '700m' } } }],
    });
    await assert.rejects(p.validate(attrsFor('CREATE', obj), testContext), /maximum cpu usage per Pod is 1, but limit is 1100m/);
  });

  it('bounds PersistentVolumeClaim requests, on create and update', async () => {
    const p = plugin([limitRange([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }])]);
    const pvc = (size: string): KubeObject => ({ metadata: { name: 'c', namespace: 'ns' }, spec: { resources: { requests: { storage: size } } } });
    const opts = { resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim' };
    await p.validate(attrsFor('CREATE', pvc('5Gi'), opts), testContext);
    await assert.rejects(p.validate(attrsFor('UPDATE', pvc('20Gi'), opts), testContext), {
      message: 'persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    });
    await assert.rejects(p.validate(attrsFor('CREATE', pvc('500Mi'), opts), testContext), /minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi/);
  });

  it('lists a namespace the informer shows none for from storage, once per 30 s', async () => {
    let lists = 0;
    const p = plugin([], async () => {
      lists++;
      return [limitRange([{ type: 'Container', max: { cpu: '1' } }], 'other')];
    });
    const big = (): KubeObject => pod('p', { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '2' } } }] });
    await assert.rejects(p.validate(attrsFor('CREATE', big(), { namespace: 'other' }), testContext), /maximum cpu usage per Container is 1/);
    await assert.rejects(p.validate(attrsFor('CREATE', big(), { namespace: 'other' }), testContext), /maximum cpu usage/);
    assert.equal(lists, 1);
  });

  it('leaves pod updates and subresources alone', async () => {
    const p = plugin([limitRange([{ type: 'Container', max: { cpu: '1' } }])]);
    const big = pod('p', { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '2' } } }] });
    await p.validate(attrsFor('UPDATE', big, { oldObject: big }), testContext);
    await p.validate(attrsFor('CREATE', big, { subresource: 'status' }), testContext);
  });
});
