import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { StatusError } from '../../apierrors/status-error.js';
import { FakeInformer } from '../../admission/plugins/pod-shared/fakes.js';
import { createLogger } from '../../observability/logging.js';
import { ServiceAccountsController } from './controller.js';

const tick = () => new Promise((r) => setTimeout(r, 5));
const ns = (name: string, phase = 'Active'): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } });

describe('serviceaccount controller', () => {
  it('creates the default account in every active namespace, and again after it is deleted', async () => {
    const namespaces = new FakeInformer([ns('a'), ns('gone', 'Terminating')]);
    const existing: KubeObject = { metadata: { name: 'default', namespace: 'b' } };
    const accounts = new FakeInformer([existing]);
    const created: string[] = [];
    const c = new ServiceAccountsController(
      namespaces.asInformer(),
      accounts.asInformer(),
      async (o) => {
        created.push(`${o.metadata.namespace}/${o.metadata.name}`);
        accounts.add(o);
        return o;
      },
      createLogger(0, true),
    );
    c.start();
    namespaces.add(ns('b'));
    await tick();
    assert.deepEqual(created, ['a/default']);
    accounts.remove(existing);
    await tick();
    assert.deepEqual(created, ['a/default', 'b/default']);
    c.stop();
  });

  it('takes AlreadyExists as done', async () => {
    let calls = 0;
    const c = new ServiceAccountsController(
      new FakeInformer([ns('a')]).asInformer(),
      new FakeInformer([]).asInformer(),
      async () => {
        calls++;
        throw new StatusError(409, 'AlreadyExists', 'exists');
      },
      createLogger(0, true),
    );
    c.start();
    await tick();
    assert.equal(calls, 1);
    c.stop();
  });
});
