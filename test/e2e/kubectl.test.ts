/**
 * End to end: the real kubectl binaries (the one on PATH and kubectl.1.27 that the kubectl
 * package ships beside it) drive a real server on a real etcd.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubectl, kubectlStream, waitFor, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const manifests = (ns: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: ${ns}
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 80
---
apiVersion: v1
kind: Pod
metadata:
  name: p1
  namespace: ${ns}
spec:
  containers:
  - name: c
    image: busybox
---
apiVersion: v1
kind: Secret
metadata:
  name: s1
  namespace: ${ns}
stringData:
  password: hunter2
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: l1
  namespace: ${ns}
spec:
  holderIdentity: me
  leaseDurationSeconds: 15
---
apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: e1
  namespace: ${ns}
eventTime: "2024-01-01T00:00:00.000000Z"
action: Created
reason: Testing
reportingController: example.com/tester
reportingInstance: tester-1
type: Normal
note: hello
regarding:
  kind: Pod
  name: p1
  namespace: ${ns}
`;

function suite(version: string | undefined): void {
  const label = version ? `kubectl ${version}` : 'kubectl (PATH)';
  const ns = `e2e-${(version ?? 'path').replace('.', '-')}`;
  const k = (args: string[], input?: string) => kubectl(fx.kubeconfigPath, args, { ...(version ? { version } : {}), ...(input !== undefined ? { input } : {}) });

  describe(label, () => {
    it('api-resources lists the served resources with their short names', async () => {
      const out = ok(await k(['api-resources']), 'api-resources');
      for (const [name, short] of [['configmaps', 'cm'], ['namespaces', 'ns'], ['pods', 'po'], ['services', 'svc'], ['deployments', 'deploy'], ['leases', ''], ['serviceaccounts', 'sa']]) {
        const line = out.split('\n').find((l) => l.startsWith(`${name} `));
        assert.ok(line, `${name} listed`);
        if (short) assert.ok(line.split(/\s+/).includes(short), `${name} has short name ${short}`);
      }
      assert.match(out, /events\s+ev\s+events\.k8s\.io\/v1\s+true\s+Event/);
    });

    it('create namespace and create configmap --from-literal', async () => {
      ok(await k(['create', 'namespace', ns]), 'create namespace');
      ok(await k(['-n', ns, 'create', 'configmap', 'c1', '--from-literal=a=b', '--from-literal=c=d']), 'create configmap');
      const json = JSON.parse(ok(await k(['-n', ns, 'get', 'configmap', 'c1', '-o', 'json']), 'get -o json'));
      assert.deepEqual(json.data, { a: 'b', c: 'd' });
    });

    it('get -o yaml and -o jsonpath', async () => {
      const yaml = ok(await k(['-n', ns, 'get', 'cm', 'c1', '-o', 'yaml']), 'get -o yaml');
      assert.match(yaml, /^apiVersion: v1$/m);
      assert.match(yaml, /^kind: ConfigMap$/m);
      assert.match(yaml, /resourceVersion: "\d+"/);
      assert.equal(ok(await k(['-n', ns, 'get', 'cm', 'c1', '-o', 'jsonpath={.data.a}']), 'jsonpath'), 'b');
    });

    it('label, annotate, patch --type=merge and --type=json', async () => {
      ok(await k(['-n', ns, 'label', 'cm', 'c1', 'tier=web']), 'label');
      ok(await k(['-n', ns, 'annotate', 'cm', 'c1', 'note=hello']), 'annotate');
      ok(await k(['-n', ns, 'patch', 'cm', 'c1', '--type=merge', '-p', '{"data":{"e":"f"}}']), 'merge patch');
      ok(await k(['-n', ns, 'patch', 'cm', 'c1', '--type=json', '-p', '[{"op":"remove","path":"/data/c"}]']), 'json patch');
      const obj = JSON.parse(ok(await k(['-n', ns, 'get', 'cm', 'c1', '-o', 'json']), 'get'));
      assert.equal(obj.metadata.labels.tier, 'web');
      assert.equal(obj.metadata.annotations.note, 'hello');
      assert.deepEqual(obj.data, { a: 'b', e: 'f' });
    });

    it('replace -f and delete', async () => {
      const obj = JSON.parse(ok(await k(['-n', ns, 'get', 'cm', 'c1', '-o', 'json']), 'get'));
      obj.data = { replaced: 'yes' };
      const file = join(fx.dir, `${ns}-c1.json`);
      await writeFile(file, JSON.stringify(obj));
      ok(await k(['replace', '-f', file]), 'replace');
      assert.equal(ok(await k(['-n', ns, 'get', 'cm', 'c1', '-o', 'jsonpath={.data.replaced}']), 'get'), 'yes');
      const stale = await k(['replace', '-f', file]);
      assert.notEqual(stale.code, 0, 'replacing with a stale resourceVersion fails');
      assert.match(stale.stderr, /Conflict|the object has been modified/);
      ok(await k(['-n', ns, 'delete', 'cm', 'c1']), 'delete');
      const gone = await k(['-n', ns, 'get', 'cm', 'c1']);
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /NotFound|not found/);
    });

    it('get --chunk-size=2 over five objects pages with continue tokens', async () => {
      for (let i = 1; i <= 5; i++) ok(await k(['-n', ns, 'create', 'configmap', `chunk-${i}`]), 'create');
      const r = await k(['-n', ns, 'get', 'cm', '--chunk-size=2', '-v=6']);
      ok(r, 'get --chunk-size');
      const gets = r.stderr.split('\n').filter((l) => /GET https?:\/\/\S+\/configmaps\?/.test(l) || /verb="GET" url="[^"]+\/configmaps\?/.test(l));
      assert.equal(gets.length, 3, `three pages were fetched:\n${r.stderr}`);
      assert.equal(gets.filter((l) => l.includes('continue=')).length, 2);
      for (let i = 1; i <= 5; i++) assert.match(r.stdout, new RegExp(`^chunk-${i}\\s`, 'm'));
    });

    it('get -w prints an added and then a modified object', async () => {
      const w = kubectlStream(fx.kubeconfigPath, ['-n', ns, 'get', 'cm', '-w', '--output-watch-events'], version);
      try {
        assert.ok(await waitFor(() => /chunk-5/.test(w.output()), 15_000), `initial list printed: ${w.output()}`);
        ok(await k(['-n', ns, 'create', 'configmap', 'watched']), 'create');
        assert.ok(await waitFor(() => /ADDED\s+watched/.test(w.output()), 10_000), `added printed: ${w.output()}`);
        ok(await k(['-n', ns, 'label', 'cm', 'watched', 'x=y']), 'label');
        assert.ok(await waitFor(() => /MODIFIED\s+watched/.test(w.output()), 10_000), `modified printed: ${w.output()}`);
      } finally {
        await w.stop();
      }
    });

    it('create -f of a Deployment, Service, Pod, Secret, Lease and an events.k8s.io/v1 Event', async () => {
      const file = join(fx.dir, `${ns}-all.yaml`);
      await writeFile(file, manifests(ns));
      const out = ok(await k(['create', '-f', file]), 'create -f');
      for (const created of ['deployment.apps/web created', 'service/web created', 'pod/p1 created', 'secret/s1 created', 'lease.coordination.k8s.io/l1 created', 'event.events.k8s.io/e1 created']) {
        assert.ok(out.includes(created), `${created} in:\n${out}`);
      }
      const secret = JSON.parse(ok(await k(['-n', ns, 'get', 'secret', 's1', '-o', 'json']), 'get secret'));
      assert.equal(Buffer.from(secret.data.password, 'base64').toString(), 'hunter2');
      const coreEvent = JSON.parse(ok(await k(['-n', ns, 'get', 'events.v1.', 'e1', '-o', 'json']), 'get core event'));
      assert.equal(coreEvent.message, 'hello');
      assert.equal(coreEvent.involvedObject.name, 'p1');
      ok(await k(['-n', ns, 'scale', 'deployment/web', '--replicas=3']), 'scale');
      assert.equal(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}']), 'get'), '3');
    });

    it('delete namespace removes everything it held', async () => {
      ok(await k(['delete', 'namespace', ns, '--timeout=60s']), 'delete namespace');
      const gone = await k(['get', 'namespace', ns]);
      assert.notEqual(gone.code, 0);
      const left = await fx.request('GET', `/api/v1/namespaces/${ns}/configmaps`);
      assert.equal(left.json().items.length, 0);
      const deploys = await fx.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments`);
      assert.equal(deploys.json().items.length, 0);
    });
  });
}

suite(undefined);
suite('1.27');
