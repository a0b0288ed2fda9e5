import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import type { GenericStore } from '../../generic/store.js';
import type { ResourceRegistration } from '../../registration.js';
import { patchWith, requestContext, statusOf } from '../shared/testing.js';
import { podEphemeralContainersStrategy, validateEphemeralContainersUpdate } from './ephemeral-containers.js';
import { podsModule } from './store.js';

const ctx = requestContext('PUT', '/api/v1/namespaces/ns/pods/p/ephemeralcontainers');
const debug = { name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' };
const pod = (ephemeral?: unknown[], extra: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '5', labels: { a: 'b' } },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...(ephemeral ? { ephemeralContainers: ephemeral } : {}) },
  status: { phase: 'Running' },
  ...extra,
});

describe('pods/ephemeralcontainers strategy', () => {
  it('takes only spec.ephemeralContainers from the request', () => {
    const old = pod();
    const obj = pod([debug]);
    obj.metadata.labels = { changed: 'yes' };
    (obj.spec as Record<string, unknown>).restartPolicy = 'Never';
    obj.status = { phase: 'Failed' };
    podEphemeralContainersStrategy.prepareForUpdate(ctx, obj, old);
    assert.deepEqual(obj, pod([debug]));
  });

  it('refuses removing or changing an existing ephemeral container', () => {
    const old = pod([debug]);
    assert.deepEqual(validateEphemeralContainersUpdate(pod([]), old).map(fieldErrorMessage), [
      'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed\n',
    ]);
    const changed = validateEphemeralContainersUpdate(pod([{ ...debug, image: 'alpine' }]), old).map(fieldErrorMessage);
    assert.equal(changed.length, 1);
    assert.match(changed[0] ?? '', /^spec\.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed\n/);
    assert.deepEqual(validateEphemeralContainersUpdate(pod([debug, { ...debug, name: 'second' }]), old), []);
  });

  it('refuses static pods and validates the new containers', () => {
    const mirror = pod([], { metadata: { name: 'p', annotations: { 'kubernetes.io/config.mirror': 'x' } } });
    assert.deepEqual(validateEphemeralContainersUpdate(pod([debug]), mirror).map(fieldErrorMessage), [': Forbidden: static pods do not support ephemeral containers']);
    assert.deepEqual(validateEphemeralContainersUpdate(pod([{ ...debug, resources: { limits: { cpu: '1' } } }]), pod()).map(fieldErrorMessage), [
      'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });
});

describe('pods/ephemeralcontainers (etcd)', () => {
  const fx = useEtcd();
  const createCtx = requestContext('POST', '/api/v1/namespaces/ns/pods');

  function setup(): { reg: ResourceRegistration; store: GenericStore } {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('ephemeral'), codec: jsonCodec });
    const reg = podsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
    return { reg, store: reg.main as GenericStore };
  }

  it('adds an ephemeral container and nothing else; create refuses them', async () => {
    const { reg, store } = setup();
    const refused = await statusOf(store.create(createCtx, { metadata: { name: 'e' }, spec: { containers: [{ name: 'app', image: 'nginx' }], ephemeralContainers: [debug] } }, { dryRun: false }));
    assert.equal(refused.code, 422);
    assert.equal(refused.details?.causes?.[0]?.field, 'spec.ephemeralContainers');
    await store.create(createCtx, { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } }, { dryRun: false });
    const sub = reg.subresources.ephemeralcontainers;
    assert.ok(sub?.update);
    const res = await sub.update(
      ctx,
      'p',
      patchWith((p) => {
        (p.spec as Record<string, unknown>).ephemeralContainers = [debug];
        (p.spec as Record<string, unknown>).activeDeadlineSeconds = 5;
      }),
      { dryRun: false },
    );
    assert.deepEqual((res.object.spec as Record<string, unknown>).ephemeralContainers, [debug]);
    assert.equal((res.object.spec as Record<string, unknown>).activeDeadlineSeconds, undefined);
    const removed = await statusOf(sub.update(ctx, 'p', patchWith((p) => ((p.spec as Record<string, unknown>).ephemeralContainers = [])), { dryRun: false }));
    assert.equal(removed.code, 422);
    // A main-resource update may not touch them either.
    const viaMain = await statusOf(store.update(createCtx, 'p', patchWith((p) => ((p.spec as Record<string, unknown>).ephemeralContainers = [])), { dryRun: false }));
    assert.equal(viaMain.code, 422);
  });
});
