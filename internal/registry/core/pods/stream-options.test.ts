import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../api/meta/types.js';
import { StatusError } from '../../../apierrors/status-error.js';
import { decodeStreamOptions, kubeletQuery, resolveContainer } from './stream-options.js';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err.status.message ?? '';
  }
  return 'no error';
}

test("options decode as kube's parameter codec does and become the kubelet's query", () => {
  const exec = decodeStreamOptions('exec', q('command=sh&command=-c&command=echo%20hi&stdin=true&stdout=1&stderr=false&tty=0&container=main'));
  assert.deepEqual(exec, { kind: 'PodExecOptions', apiVersion: 'v1', stdin: true, stdout: true, container: 'main', command: ['sh', '-c', 'echo hi'] });
  assert.equal(kubeletQuery('exec', exec).toString(), 'input=1&output=1&command=sh&command=-c&command=echo+hi');
  const attach = decodeStreamOptions('attach', q('stdout=yes&stderr=TRUE&tty=true'));
  assert.equal(kubeletQuery('attach', attach).toString(), 'output=1&error=1&tty=1');
  const pf = decodeStreamOptions('portforward', q('ports=8080,9090&ports=1'));
  assert.deepEqual(pf, { kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: [8080, 9090, 1] });
  assert.equal(kubeletQuery('portforward', pf).toString(), 'port=8080&port=9090&port=1');
  assert.match(message(() => decodeStreamOptions('portforward', q('ports=http'))), /parsing "http": invalid syntax/);
});

test("container defaulting and kube's messages", () => {
  const pod = (containers: string[], init: string[] = []): KubeObject =>
    ({ metadata: { name: 'web' }, spec: { containers: containers.map((name) => ({ name })), initContainers: init.map((name) => ({ name })) } }) as KubeObject;
  assert.equal(resolveContainer(pod(['only']), ''), 'only');
  assert.equal(message(() => resolveContainer(pod([]), '')), 'a container name must be specified for pod web');
  assert.equal(message(() => resolveContainer(pod(['a', 'b'], ['setup']), '')), 'a container name must be specified for pod web, choose one of: [setup a b]');
  assert.equal(resolveContainer(pod(['a', 'b'], ['setup']), 'setup'), 'setup');
  assert.equal(message(() => resolveContainer(pod(['a']), 'z')), 'container z is not valid for pod web');
});
