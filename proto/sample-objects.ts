/**
 * Representative stored objects for the codec's micro-benchmark and property tests: each as the
 * server holds it after a create (uid, timestamps, managedFields, defaults, status).
 */
import type { JsonObject } from './types.js';

const TS = '2026-11-27T17:43:34Z';
const managed = (manager: string, fieldsV1: JsonObject, subresource?: string): JsonObject => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time: TS,
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
});

const meta = (name: string, extra: JsonObject = {}): JsonObject => ({
  name,
  namespace: 'default',
  uid: '6f1c1a4e-2b8e-4d7a-9a53-0c1d2e3f4a5b',
  generation: 1,
  creationTimestamp: TS,
  ...extra,
});

/** A ConfigMap of about 1 KiB, as stored after a create by kubectl. */
export function sampleConfigMap(): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta('bench-cm', {
      labels: { app: 'bench' },
      managedFields: [managed('kubectl-create', { 'f:data': { '.': {}, 'f:pad': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } })],
    }),
    data: { pad: 'x'.repeat(700), 'settings.yaml': 'level: info\nformat: json\n' },
  };
}

/** A Pod with a full spec (defaults applied) and a Running status. */
export function samplePod(): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('web-7d4b9c8f5d-x2k9p', {
      generateName: 'web-7d4b9c8f5d-',
      labels: { app: 'web', 'pod-template-hash': '7d4b9c8f5d', tier: 'frontend' },
      annotations: { 'kubernetes.io/psp': 'restricted' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f5d', uid: 'aa11bb22-cc33-dd44-ee55-ff6677889900', controller: true, blockOwnerDeletion: true }],
      managedFields: [
        managed('kube-controller-manager', { 'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } }),
        managed('kubelet', { 'f:status': { 'f:conditions': {}, 'f:containerStatuses': {}, 'f:phase': {}, 'f:podIP': {} } }, 'status'),
      ],
    }),
    spec: {
      volumes: [{ name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }], defaultMode: 420 } }],
      containers: [
        {
          name: 'web',
          image: 'nginx:1.25',
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          env: [{ name: 'MODE', value: 'production' }, { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
          volumeMounts: [{ name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
          livenessProbe: { httpGet: { path: '/healthz', port: 80, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      nodeName: 'node-1',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: TS })),
      hostIP: '10.0.0.11',
      hostIPs: [{ ip: '10.0.0.11' }],
      podIP: '10.244.1.17',
      podIPs: [{ ip: '10.244.1.17' }],
      startTime: TS,
      containerStatuses: [
        { name: 'web', state: { running: { startedAt: TS } }, lastState: {}, ready: true, restartCount: 0, image: 'docker.io/library/nginx:1.25', imageID: 'docker.io/library/nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', containerID: 'containerd://4f5e6d7c8b9a', started: true },
      ],
      qosClass: 'Burstable',
    },
  };
}

/** A Deployment with a pod template and a status. */
export function sampleDeployment(): JsonObject {
  const pod = samplePod();
  const spec = { ...(pod['spec'] as JsonObject) };
  delete spec['nodeName'];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('web', { annotations: { 'deployment.kubernetes.io/revision': '1' }, labels: { app: 'web' } }),
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        { type: 'Available', status: 'True', lastUpdateTime: TS, lastTransitionTime: TS, reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', lastUpdateTime: TS, lastTransitionTime: TS, reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web-7d4b9c8f5d" has successfully progressed.' },
      ],
    },
  };
}

/** A Node with capacity, conditions, addresses, node info and a few images. */
export function sampleNode(): JsonObject {
  const resources = { cpu: '4', 'ephemeral-storage': '102350Mi', 'hugepages-2Mi': '0', memory: '16315112Ki', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-1',
      uid: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
      creationTimestamp: TS,
      labels: { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/worker': '' },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], providerID: 'capstan://node-1' },
    status: {
      capacity: resources,
      allocatable: { ...resources, cpu: '3900m' },
      conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((type) => ({
        type,
        status: type === 'Ready' ? 'True' : 'False',
        lastHeartbeatTime: TS,
        lastTransitionTime: TS,
        reason: type === 'Ready' ? 'KubeletReady' : `KubeletHasNo${type}`,
        message: type === 'Ready' ? 'kubelet is posting ready status' : `kubelet has no ${type}`,
      })),
      addresses: [{ type: 'InternalIP', address: '10.0.0.11' }, { type: 'Hostname', address: 'node-1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: 'c0ffee', systemUUID: 'c0ffee-uuid', bootID: 'boot-1', kernelVersion: '6.1.0', osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://1.6.20', kubeletVersion: 'v1.33.0', kubeProxyVersion: 'v1.33.0', operatingSystem: 'linux', architecture: 'amd64',
      },
      images: [
        { names: ['docker.io/library/nginx@sha256:0123456789abcdef', 'docker.io/library/nginx:1.25'], sizeBytes: 70000000 },
        { names: ['registry.k8s.io/pause:3.9'], sizeBytes: 321520 },
      ],
    },
  };
}

/** The four samples by name. */
export const sampleObjects: Readonly<Record<string, () => JsonObject>> = { configMap: sampleConfigMap, pod: samplePod, deployment: sampleDeployment, node: sampleNode };
