import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { containerFieldPath } from './field-path.js';

test("a container's events name its list and name, as kubelet's container references do", () => {
  const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'main' }], initContainers: [{ name: 'setup' }], ephemeralContainers: [{ name: 'debug' }] } } as unknown as KubeObject;
  assert.equal(containerFieldPath(pod, 'main'), 'spec.containers{main}');
  assert.equal(containerFieldPath(pod, 'setup'), 'spec.initContainers{setup}');
  assert.equal(containerFieldPath(pod, 'debug'), 'spec.ephemeralContainers{debug}');
  assert.equal(containerFieldPath(pod, 'gone'), 'spec.containers{gone}');
});
