/**
 * End to end with the real kubectl against one server with kube's default admission plugins
 * (client certificates and RBAC, as an operator starts kube-apiserver), the controllers Capstan
 * runs inside the API server (the e2e tests pod-security, resource-quota and
 * validating-admission-policy cover those plugins through kubectl):
 * 1. `kubectl delete --cascade=foreground` removes a Deployment's ReplicaSets before it, and
 *    `--cascade=orphan` leaves them without their owner reference (the garbage collector);
 * 2. a pod made with `kubectl run` in a new namespace gets the default service account (made by
 *    the serviceaccount-controller) and its token volume;
 * 3. `kubectl create service nodeport` gets a cluster IP and a node port in their ranges.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { clientCert, createCertificateAuthority, type IssuedCertificate } from '../support/client-certs.js';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

let admin: IssuedCertificate;

const fx = useServer({}, async () => {
  const ca = await createCertificateAuthority('e2e-admission-ca');
  admin = await clientCert(ca, 'ada', ['system:masters']);
  await writeFile(join(fx.dir, 'client-ca.crt'), ca.certPem);
  return [`--client-ca-file=${join(fx.dir, 'client-ca.crt')}`, '--anonymous-auth=false', '--authorization-mode=RBAC'];
});

let kcPath: string | undefined;
async function kc(args: readonly string[], input?: string): Promise<KubectlResult> {
  if (!kcPath) {
    kcPath = join(fx.dir, 'ada.kubeconfig');
    await writeFile(kcPath, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, 'ada', { clientCert: admin.cert, clientKey: admin.key }));
  }
  return await kubectl(kcPath, args, input === undefined ? {} : { input });
}

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** kubectl create namespace, then wait for its default service account (pods need it). */
async function namespace(name: string): Promise<void> {
  ok(await kc(['create', 'namespace', name]), 'create namespace');
  await eventually(`${name}/default service account`, async () => (await kc(['get', 'serviceaccount', 'default', '-n', name])).code === 0);
}


describe('the in-server controllers through kubectl', () => {
  it('kubectl delete --cascade=foreground and --cascade=orphan, through the garbage collector', async () => {
    await namespace('gc');
    for (const name of ['fg', 'or']) {
      ok(await kc(['create', 'deployment', name, '--image=nginx', '-n', 'gc']), 'create deployment');
      const uid = ok(await kc(['get', 'deployment', name, '-n', 'gc', '-o', 'jsonpath={.metadata.uid}']), 'uid');
      const rs = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: `${name}-rs`, labels: { app: name }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid, controller: true, blockOwnerDeletion: true }] },
        spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      };
      ok(await kc(['apply', '-n', 'gc', '-f', '-'], JSON.stringify(rs)), 'create replicaset');
    }
    ok(await kc(['delete', 'deployment', 'fg', '-n', 'gc', '--cascade=foreground', '--timeout=30s']), 'delete foreground');
    // kubectl waited for the Deployment to go: its ReplicaSet went first.
    assert.notEqual((await kc(['get', 'replicaset', 'fg-rs', '-n', 'gc'])).code, 0);
    ok(await kc(['delete', 'deployment', 'or', '-n', 'gc', '--cascade=orphan', '--timeout=30s']), 'delete orphan');
    await eventually('orphaned replicaset', async () => {
      const refs = await kc(['get', 'replicaset', 'or-rs', '-n', 'gc', '-o', 'jsonpath={.metadata.ownerReferences}']);
      return refs.code === 0 && refs.stdout.trim() === '';
    });
  });

  it('a pod made with kubectl run gets the default service account and its token volume', async () => {
    await namespace('sa');
    ok(await kc(['run', 'web', '--image=nginx', '-n', 'sa']), 'run');
    const pod = JSON.parse(ok(await kc(['get', 'pod', 'web', '-n', 'sa', '-o', 'json']), 'get pod'));
    assert.equal(pod.spec.serviceAccountName, 'default');
    const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    assert.ok(volume?.projected, JSON.stringify(pod.spec.volumes));
    assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }]);
  });

  it('kubectl create service nodeport gets a cluster IP and a node port in their ranges', async () => {
    ok(await kc(['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '-n', 'default']), 'create service');
    const svc = JSON.parse(ok(await kc(['get', 'service', 'np', '-n', 'default', '-o', 'json']), 'get service'));
    assert.match(svc.spec.clusterIP, /^10\.0\.0\.\d+$/);
    const port = svc.spec.ports[0].nodePort;
    assert.ok(port >= 30000 && port <= 32767, String(port));
  });
});
