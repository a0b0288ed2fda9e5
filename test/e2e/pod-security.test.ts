/**
 * PodSecurity as kubectl users meet it: `kubectl label` raising a namespace's enforce level prints
 * kube's warnings about existing pods, `kubectl run` of a privileged pod is refused with kube's
 * message, and `kubectl create deployment` in an enforce=restricted namespace prints the warning.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();

describe('PodSecurity with kubectl', () => {
  it('label warnings, refused pods and workload warnings', async () => {
    const k = (args: string[], input?: string) => kubectl(fx.kubeconfigPath, args, input === undefined ? {} : { input });
    assert.equal((await k(['create', 'namespace', 'psa'])).code, 0);
    const pod = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'old', namespace: 'psa' },
      spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
    });
    assert.equal((await k(['create', '-f', '-'], pod)).code, 0);
    // The plugin sees existing pods through its informer: relabel until it has seen this one.
    let label = await k(['label', 'namespace', 'psa', 'pod-security.kubernetes.io/enforce=baseline']);
    for (let i = 0; i < 30 && !label.stderr.includes('old: privileged'); i++) {
      await k(['label', '--overwrite', 'namespace', 'psa', 'pod-security.kubernetes.io/enforce=privileged']);
      await new Promise((r) => setTimeout(r, 100));
      label = await k(['label', '--overwrite', 'namespace', 'psa', 'pod-security.kubernetes.io/enforce=baseline']);
    }
    assert.equal(label.code, 0, label.stderr);
    assert.match(label.stderr, /Warning: existing pods in namespace "psa" violate the new PodSecurity enforce level "baseline:latest"\nWarning: old: privileged\n/);

    const run = await k(['run', 'priv', '-n', 'psa', '--image=busybox', '--overrides={"spec":{"containers":[{"name":"priv","image":"busybox","securityContext":{"privileged":true}}]}}']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /Error from server \(Forbidden\): pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged \(container "priv" must not set securityContext\.privileged=true\)/);

    assert.equal((await k(['label', '--overwrite', 'namespace', 'psa', 'pod-security.kubernetes.io/enforce=restricted'])).code, 0);
    const deploy = await k(['create', 'deployment', 'web', '-n', 'psa', '--image=nginx']);
    assert.equal(deploy.code, 0, deploy.stderr);
    assert.match(deploy.stderr, /Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "nginx" must set securityContext\.allowPrivilegeEscalation=false\), unrestricted capabilities/);
  });
});
