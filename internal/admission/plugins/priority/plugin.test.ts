import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { Priority } from './plugin.js';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });
const pcAttrs = (op: 'CREATE' | 'UPDATE', obj: KubeObject) => attrsFor(op, obj, { group: 'scheduling.k8s.io', resource: 'priorityclasses', kind: 'PriorityClass', namespace: '' });

describe('Priority admission', () => {
  it('resolves the class to priority and preemptionPolicy', async () => {
    const p = new Priority(new FakeInformer([pc('high', 1000, { preemptionPolicy: 'Never' })]).asInformer());
    const obj = pod('p', { priorityClassName: 'high', containers: [] });
    await p.admit(attrsFor('CREATE', obj), testContext);
    assert.equal((obj as Pod).spec?.priority, 1000);
    assert.equal((obj as Pod).spec?.preemptionPolicy, 'Never');
  });

  it('uses the global default class (the lowest of several), else 0', async () => {
    const p = new Priority(new FakeInformer([pc('a', 50, { globalDefault: true }), pc('b', 10, { globalDefault: true })]).asInformer());
    const obj = pod('p', { containers: [] });
    await p.admit(attrsFor('CREATE', obj), testContext);
    assert.equal((obj as Pod).spec?.priorityClassName, 'b');
    assert.equal((obj as Pod).spec?.priority, 10);
    const none = pod('p', { containers: [] });
    await new Priority(new FakeInformer([]).asInformer()).admit(attrsFor('CREATE', none), testContext);
    assert.equal((none as Pod).spec?.priority, 0);
    assert.equal((none as Pod).spec?.priorityClassName, undefined);
  });

  it('refuses an unknown class and a priority or policy that differs from the class', async () => {
    const p = new Priority(new FakeInformer([pc('high', 1000, { preemptionPolicy: 'PreemptLowerPriority' })]).asInformer());
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { priorityClassName: 'nope', containers: [] })), testContext), {
      message: 'pods "p" is forbidden: no PriorityClass with name nope was found',
    });
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { priorityClassName: 'high', priority: 5, containers: [] })), testContext), {
      message: 'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    });
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { priorityClassName: 'high', preemptionPolicy: 'Never', containers: [] })), testContext), {
      message:
        'pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    });
  });

  it('keeps the stored priority on an update that drops it', async () => {
    const p = new Priority(new FakeInformer([]).asInformer());
    const old = pod('p', { priority: 7, preemptionPolicy: 'Never', containers: [] });
    const cur = pod('p', { containers: [] });
    await p.admit(attrsFor('UPDATE', cur, { oldObject: old }), testContext);
    assert.equal((cur as Pod).spec?.priority, 7);
    assert.equal((cur as Pod).spec?.preemptionPolicy, 'Never');
  });

  it('allows only one globalDefault PriorityClass', async () => {
    const p = new Priority(new FakeInformer([pc('a', 1, { globalDefault: true })]).asInformer());
    await assert.rejects(p.validate(pcAttrs('CREATE', pc('b', 2, { globalDefault: true })), testContext), {
      message: 'priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is already marked as default. Only one default can exist',
    });
    await p.validate(pcAttrs('UPDATE', pc('a', 3, { globalDefault: true })), testContext);
    await p.validate(pcAttrs('CREATE', pc('c', 3)), testContext);
  });
});
