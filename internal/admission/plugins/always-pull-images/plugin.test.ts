import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attrsFor, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { AlwaysPullImages } from './plugin.js';

describe('AlwaysPullImages', () => {
  it('sets Always on every container kind on create', async () => {
    const obj = pod('p', {
      initContainers: [{ name: 'i', image: 'a', imagePullPolicy: 'IfNotPresent' }],
      containers: [{ name: 'c', image: 'b', imagePullPolicy: 'Never' }],
      ephemeralContainers: [{ name: 'e', image: 'c' }],
    });
    await new AlwaysPullImages().admit(attrsFor('CREATE', obj), testContext);
    const spec = (obj as Pod).spec!;
    assert.deepEqual([spec.initContainers?.[0]?.imagePullPolicy, spec.containers?.[0]?.imagePullPolicy, spec.ephemeralContainers?.[0]?.imagePullPolicy], ['Always', 'Always', 'Always']);
  });

  it('on update only when an image is new, and refuses other policies then', async () => {
    const p = new AlwaysPullImages();
    const old = pod('p', { containers: [{ name: 'c', image: 'a', imagePullPolicy: 'IfNotPresent' }] });
    const same = pod('p', { containers: [{ name: 'c', image: 'a', imagePullPolicy: 'IfNotPresent' }] });
    await p.admit(attrsFor('UPDATE', same, { oldObject: old }), testContext);
    assert.equal((same as Pod).spec?.containers?.[0]?.imagePullPolicy, 'IfNotPresent');
    await p.validate(attrsFor('UPDATE', same, { oldObject: old }), testContext);
    const changed = pod('p', { containers: [{ name: 'c', image: 'b', imagePullPolicy: 'IfNotPresent' }] });
    await assert.rejects(p.validate(attrsFor('UPDATE', changed, { oldObject: old }), testContext), (err: Error & { status?: { code?: number } }) => {
      assert.equal(err.status?.code, 403);
      assert.equal(err.message, 'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"');
      return true;
    });
  });
});
