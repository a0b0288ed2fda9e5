/**
 * End to end: kubectl prints the server's Tables. For every resource issue 5 names, `kubectl get`
 * and `kubectl get -o wide` print the columns a kube-apiserver 1.33 cluster prints (kubectl 1.33
 * and 1.27), with cells as kubectl shows them, and `kubectl get pods -w` prints rows as pods change.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { kubectl, kubectlStream, waitFor, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();
const ns = 'print';

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const podTemplate = (app: string) => `
    metadata:
      labels: {app: ${app}}
    spec:
      containers:
      - {name: main, image: "nginx:1.25"}
      - {name: side, image: "busybox:1.36"}`;

const manifest = `apiVersion: v1
kind: Namespace
metadata: {name: ${ns}}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ${ns}}
spec:
  containers:
  - {name: main, image: "nginx:1.25"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:${podTemplate('web')}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: ${ns}}
spec:
  replicas: 3
  selector: {matchLabels: {app: rs}}
  template:${podTemplate('rs')}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: db}}
  serviceName: db
  template:${podTemplate('db')}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata:
      labels: {app: agent}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers:
      - {name: main, image: "busybox:1.36"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: ${ns}}
spec:
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: main, image: "busybox:1.36"}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ${ns}}
spec:
  schedule: "0 3 * * *"
  timeZone: Etc/UTC
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - {name: main, image: "busybox:1.36"}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: ${ns}}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: metrics, port: 9090, protocol: UDP}
---
apiVersion: v1
kind: Endpoints
metadata: {name: manual, namespace: ${ns}}
subsets:
- addresses: [{ip: 192.0.2.1}, {ip: 192.0.2.2}]
  ports: [{port: 80}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: manual-abc, namespace: ${ns}}
addressType: IPv4
ports: [{port: 80, protocol: TCP}]
endpoints:
- addresses: [192.0.2.1]
---
apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {node-role.kubernetes.io/worker: ""}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: ${ns}}
data: {a: "1", b: "2"}
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: ${ns}}
type: Opaque
stringData: {user: me}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: robot, namespace: ${ns}}
---
apiVersion: v1
kind: Event
metadata: {name: core-ev, namespace: ${ns}}
involvedObject: {kind: Pod, name: p1, namespace: ${ns}}
reason: Scheduled
message: core event
type: Normal
source: {component: scheduler}
count: 3
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
---
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: new-ev, namespace: ${ns}}
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: example.com/ctl
reportingInstance: ctl-1
action: Pulling
reason: Pulling
regarding: {kind: Pod, name: p1, namespace: ${ns}}
note: new event
type: Normal
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: lock, namespace: ${ns}}
spec: {holderIdentity: leader-1}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: site, namespace: ${ns}}
spec:
  ingressClassName: nginx
  rules:
  - host: example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /tmp/pv1}
  storageClassName: manual
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: ${ns}}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  resources: {requests: {storage: 1Gi}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: manual}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: ${ns}}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read-pods, namespace: ${ns}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}
- {kind: ServiceAccount, name: robot, namespace: ${ns}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: print-reader}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: print-read-nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: print-reader}
subjects:
- {kind: Group, name: ops, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: ${ns}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: ${ns}}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: important}
value: 1000
globalDefault: false
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

/** What a 1.33 cluster prints: the header of `kubectl get` and of `-o wide`, and cells of the first row. */
const expected: Array<{ resource: string; header: string[]; wide: string[]; row?: RegExp }> = [
  { resource: 'pods', header: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], wide: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'], row: /^p1\s+0\/1\s+Pending\s+0\s+\d+s$/ },
  { resource: 'deployments', header: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'], wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'], row: /^web\s+0\/2\s+0\s+0\s+\d+s$/ },
  { resource: 'replicasets', header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'], wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'], row: /^rs\s+3\s+0\s+0\s+\d+s$/ },
  { resource: 'statefulsets', header: ['NAME', 'READY', 'AGE'], wide: ['CONTAINERS', 'IMAGES'], row: /^db\s+0\/1\s+\d+s$/ },
  { resource: 'daemonsets', header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'], wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'], row: /^agent\s+0\s+0\s+0\s+0\s+0\s+kubernetes\.io\/os=linux\s+\d+s$/ },
  { resource: 'jobs', header: ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'], wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'], row: /^once\s+Running\s+0\/2\s+\s*\d+s$/ },
  { resource: 'cronjobs', header: ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'], wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'], row: /^nightly\s+0 3 \* \* \*\s+Etc\/UTC\s+False\s+0\s+<none>\s+\d+s$/ },
  { resource: 'services', header: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'], wide: ['SELECTOR'], row: /^web\s+ClusterIP\s+10\.0\.0\.\d+\s+<none>\s+80\/TCP,9090\/UDP\s+\d+s$/ },
  { resource: 'endpoints', header: ['NAME', 'ENDPOINTS', 'AGE'], wide: [], row: /^manual\s+192\.0\.2\.1:80,192\.0\.2\.2:80\s+\d+s$/ },
  { resource: 'endpointslices', header: ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'], wide: [], row: /^manual-abc\s+IPv4\s+80\s+192\.0\.2\.1\s+\d+s$/ },
  { resource: 'nodes', header: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'], wide: ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'], row: /^worker-1\s+Unknown\s+worker\s+\d+s\s*$/ },
  { resource: 'namespaces', header: ['NAME', 'STATUS', 'AGE'], wide: [] },
  { resource: 'configmaps', header: ['NAME', 'DATA', 'AGE'], wide: [], row: /^cfg\s+2\s+\d+s$/ },
  { resource: 'secrets', header: ['NAME', 'TYPE', 'DATA', 'AGE'], wide: [], row: /^creds\s+Opaque\s+1\s+\d+s$/ },
  { resource: 'serviceaccounts', header: ['NAME', 'SECRETS', 'AGE'], wide: [] },
  { resource: 'events', header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], wide: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'] },
  { resource: 'events.events.k8s.io', header: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], wide: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'] },
  { resource: 'leases', header: ['NAME', 'HOLDER', 'AGE'], wide: [], row: /^lock\s+leader-1\s+\d+s$/ },
  { resource: 'ingresses', header: ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'], wide: [], row: /^site\s+nginx\s+example\.com\s+80\s+\d+s$/ },
  { resource: 'persistentvolumes', header: ['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE'], wide: ['VOLUMEMODE'], row: /^pv1\s+1Gi\s+RWO\s+Retain\s+Pending\s+manual\s+<unset>\s+\d+s$/ },
  { resource: 'persistentvolumeclaims', header: ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE'], wide: ['VOLUMEMODE'], row: /^data\s+Pending\s+manual\s+<unset>\s+\d+s$/ },
  { resource: 'storageclasses', header: ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'], wide: [], row: /^manual\s+kubernetes\.io\/no-provisioner\s+Delete\s+WaitForFirstConsumer\s+false\s+\d+s$/ },
  { resource: 'roles', header: ['NAME', 'CREATED AT'], wide: [], row: /^reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ },
  { resource: 'rolebindings', header: ['NAME', 'ROLE', 'AGE'], wide: ['USERS', 'GROUPS', 'SERVICEACCOUNTS'], row: /^read-pods\s+Role\/reader\s+\d+s$/ },
  { resource: 'clusterroles', header: ['NAME', 'CREATED AT'], wide: [] },
  { resource: 'clusterrolebindings', header: ['NAME', 'ROLE', 'AGE'], wide: ['USERS', 'GROUPS', 'SERVICEACCOUNTS'] },
  { resource: 'horizontalpodautoscalers', header: ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'], wide: [], row: /^web\s+Deployment\/web\s+cpu: <unknown>\/60%\s+2\s+5\s+0\s+\d+s$/ },
  { resource: 'poddisruptionbudgets', header: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'], wide: [], row: /^web\s+1\s+N\/A\s+0\s+\d+s$/ },
  { resource: 'priorityclasses', header: ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'], wide: [] },
  { resource: 'customresourcedefinitions', header: ['NAME', 'CREATED AT'], wide: [], row: /^widgets\.example\.com\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ },
];

/** The header cells of kubectl's table output (columns are separated by at least two spaces). */
function headerOf(out: string): string[] {
  return (out.split('\n')[0] ?? '').trim().split(/\s{2,}/);
}

describe('kubectl prints server-side Tables', () => {
  before(async () => {
    const file = join(fx.dir, 'printing.yaml');
    await writeFile(file, manifest);
    ok(await kubectl(fx.kubeconfigPath, ['create', '-f', file]), 'create -f');
  });

  for (const version of ['1.33', '1.27']) {
    it(`get and get -o wide print kube's columns (kubectl ${version})`, async () => {
      const runs = await Promise.all(
        expected.map(async (e) => {
          const args = ['-n', ns, 'get', e.resource];
          if (e.resource === 'namespaces') args.push('--field-selector', `metadata.name=${ns}`);
          const [plain, wide] = await Promise.all([kubectl(fx.kubeconfigPath, args, { version }), kubectl(fx.kubeconfigPath, [...args, '-o', 'wide'], { version })]);
          return { e, plain: ok(plain, `get ${e.resource}`), wide: ok(wide, `get ${e.resource} -o wide`) };
        }),
      );
      for (const { e, plain, wide } of runs) {
        assert.deepEqual(headerOf(plain), e.header, `${e.resource} header:\n${plain}`);
        const wideHeader = e.header[0] === 'LAST SEEN' ? e.wide : [...e.header, ...e.wide];
        assert.deepEqual(headerOf(wide), wideHeader, `${e.resource} -o wide header:\n${wide}`);
        if (e.row) assert.match((plain.split('\n')[1] ?? '').trimEnd(), e.row, `${e.resource} row:\n${plain}`);
      }
    });
  }

  it('wide cells: pod IP and node, deployment containers and images, role binding subjects', async () => {
    const pods = ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'get', 'pods', '-o', 'wide'], { version: '1.33' }), 'get pods -o wide');
    assert.match(pods.split('\n')[1] ?? '', /^p1\s+0\/1\s+Pending\s+0\s+\d+s\s+<none>\s+<none>\s+<none>\s+<none>\s*$/);
    const deploy = ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'get', 'deploy', '-o', 'wide'], { version: '1.33' }), 'get deploy -o wide');
    assert.match(deploy.split('\n')[1] ?? '', /\smain,side\s+nginx:1\.25,busybox:1\.36\s+app=web\s*$/);
    const rb = ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'get', 'rolebindings', '-o', 'wide'], { version: '1.33' }), 'get rolebindings -o wide');
    assert.match(rb.split('\n')[1] ?? '', /\sjane\s+print\/robot\s*$/);
  });

  it('kubectl get pods -w prints rows as pods change', async () => {
    const w = kubectlStream(fx.kubeconfigPath, ['-n', ns, 'get', 'pods', '-w'], '1.33');
    try {
      assert.ok(await waitFor(() => /^p1\s+0\/1\s+Pending/m.test(w.output()), 15_000), `initial rows: ${w.output()}`);
      const status = JSON.stringify({
        status: {
          phase: 'Running',
          podIP: '10.244.0.7',
          containerStatuses: [{ name: 'main', ready: true, restartCount: 2, image: 'nginx:1.25', imageID: '', state: { running: { startedAt: '2026-01-01T00:00:00Z' } }, lastState: {} }],
        },
      });
      ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'patch', 'pod', 'p1', '--subresource=status', '--type=merge', '-p', status], { version: '1.33' }), 'patch status');
      assert.ok(await waitFor(() => /^p1\s+1\/1\s+Running\s+2\s+/m.test(w.output()), 10_000), `running row: ${w.output()}`);
      ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'delete', 'pod', 'p1', '--wait=false'], { version: '1.33' }), 'delete');
      assert.ok(await waitFor(() => /^p1\s+1\/1\s+Terminating\s+2\s+/m.test(w.output()) || w.output().split('\n').filter((l) => l.startsWith('p1')).length >= 3, 10_000), `deleted row: ${w.output()}`);
      assert.doesNotMatch(w.output(), /^NAME.*\n(?:.*\n)*NAME/m, 'the header is printed once');
    } finally {
      await w.stop();
    }
  });
});

describe('kubectl explain reads the OpenAPI documents', () => {
  for (const version of ['1.27', '1.33']) {
    for (const output of ['plaintext', 'plaintext-openapiv2']) {
      it(`explain deployment.spec.template.spec.containers (kubectl ${version}, ${output})`, async () => {
        const out = ok(await kubectl(fx.kubeconfigPath, ['explain', 'deployment.spec.template.spec.containers', `--output=${output}`], { version }), 'explain');
        // The v3 explainer names types; the v2 one prints apps/v1 and says Object for every struct.
        const v3 = output === 'plaintext';
        assert.match(out, /^KIND:\s+Deployment$/m);
        assert.match(out, v3 ? /^VERSION:\s+v1$/m : /^VERSION:\s+apps\/v1$/m);
        assert.match(out, v3 ? /^FIELD:\s+containers <\[\]Container>$/m : /^RESOURCE:\s+containers <\[\]Object>$/m);
        assert.match(out, /^\s+name\s+<string>\s+-required-$/m);
        for (const field of ['image', 'imagePullPolicy', 'workingDir']) assert.match(out, new RegExp(`^\\s+${field}\\s+<string>$`, 'm'));
        assert.match(out, v3 ? /^\s+ports\s+<\[\]ContainerPort>$/m : /^\s+ports\s+<\[\]Object>$/m);
        assert.match(out, v3 ? /^\s+resources\s+<ResourceRequirements>$/m : /^\s+resources\s+<Object>$/m);
      });
    }
  }
});
