import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultReplicationController } from './store.js';
import { validateReplicationController } from './validation.js';

describe('ReplicationController validation and defaults', () => {
  it('defaults selector, labels and replicas from the template', () => {
    const rc: KubeObject = { metadata: { name: 'rc' }, spec: { template: { metadata: { labels: { app: 'rc' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
    defaultReplicationController(rc);
    assert.deepEqual((rc.spec as Record<string, unknown>).selector, { app: 'rc' });
    assert.deepEqual(rc.metadata.labels, { app: 'rc' });
    assert.equal((rc.spec as Record<string, unknown>).replicas, 1);
    assert.deepEqual(messages(validateReplicationController(rc)), []);
  });

  it('requires a selector and a template that matches it', () => {
    const none: KubeObject = { metadata: { name: 'rc' }, spec: { replicas: -1 } };
    assert.deepEqual(messages(validateReplicationController(none)), [
      'spec.selector: Required value',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template: Required value',
    ]);
    const mismatch: KubeObject = { metadata: { name: 'rc' }, spec: { selector: { app: 'a' }, template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } } };
    assert.deepEqual(messages(validateReplicationController(mismatch)), ['spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`']);
  });
});
