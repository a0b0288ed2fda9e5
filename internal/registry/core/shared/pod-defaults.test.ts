import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { defaultPod, defaultPodSpec, defaultPodTemplateSpec } from './pod-defaults.js';
import { defaultImagePullPolicy, imageTag } from './image-reference.js';

describe('defaultPod (SetObjectDefaults_Pod)', () => {
  it('fills a minimal pod as kube-apiserver returns it', () => {
    const pod: Record<string, unknown> = { spec: { containers: [{ name: 'web', image: 'nginx' }] } };
    defaultPod(pod);
    assert.deepEqual(pod, {
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx',
            imagePullPolicy: 'Always',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            resources: {},
          },
        ],
        enableServiceLinks: true,
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
      },
    });
  });

  it('copies limits into missing requests and rounds quantities to milli in canonical form', () => {
    const pod: Record<string, unknown> = {
      spec: {
        containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '0.5', memory: '1024Mi' }, requests: { cpu: '100u' } } }],
        initContainers: [{ name: 'i', image: 'x:1', resources: { limits: { cpu: 2 } } }],
      },
    };
    defaultPod(pod);
    const spec = pod.spec as { containers: Array<Record<string, unknown>>; initContainers: Array<Record<string, unknown>> };
    assert.deepEqual(spec.containers[0]?.resources, { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1m', memory: '1Gi' } });
    assert.deepEqual(spec.initContainers[0]?.resources, { limits: { cpu: '2' }, requests: { cpu: '2' } });
    assert.equal(spec.containers[0]?.imagePullPolicy, 'IfNotPresent');
  });

  it('leaves an unparsable quantity for validation', () => {
    const pod: Record<string, unknown> = { spec: { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: 'lots' } } }] } };
    defaultPod(pod);
    const c = (pod.spec as { containers: Array<{ resources: unknown }> }).containers[0];
    assert.deepEqual(c?.resources, { limits: { cpu: 'lots' }, requests: { cpu: 'lots' } });
  });

  it('makes container ports host ports under hostNetwork, on the pod only', () => {
    const spec = { hostNetwork: true, containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 9000 }] }] };
    const pod: Record<string, unknown> = { spec: structuredClone(spec) };
    defaultPod(pod);
    assert.deepEqual((pod.spec as typeof spec).containers[0]?.ports, [
      { containerPort: 80, hostPort: 80, protocol: 'TCP' },
      { containerPort: 81, hostPort: 9000, protocol: 'TCP' },
    ]);
    const template: Record<string, unknown> = { spec: structuredClone(spec) };
    defaultPodTemplateSpec(template);
    assert.deepEqual((template.spec as typeof spec).containers[0]?.ports, [
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 81, hostPort: 9000, protocol: 'TCP' },
    ]);
    assert.equal((template.spec as Record<string, unknown>).enableServiceLinks, undefined);
  });

  it('keeps what the client set and is idempotent', () => {
    const spec: Record<string, unknown> = {
      dnsPolicy: 'Default',
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 0,
      schedulerName: 'mine',
      securityContext: { runAsUser: 1 },
      containers: [{ name: 'a', image: 'x', imagePullPolicy: 'Never', terminationMessagePolicy: 'FallbackToLogsOnError' }],
    };
    defaultPodSpec(spec);
    const once = structuredClone(spec);
    defaultPodSpec(spec);
    assert.deepEqual(spec, once);
    assert.equal(spec.dnsPolicy, 'Default');
    assert.equal(spec.restartPolicy, 'Never');
    assert.equal(spec.terminationGracePeriodSeconds, 0);
    assert.equal(spec.schedulerName, 'mine');
    assert.deepEqual(spec.securityContext, { runAsUser: 1 });
    assert.equal((spec.containers as Array<Record<string, unknown>>)[0]?.imagePullPolicy, 'Never');
  });
});

describe('defaultPodSpec: containers', () => {
  it('defaults probes, lifecycle handlers, env fieldRefs and ports', () => {
    const spec: Record<string, unknown> = {
      containers: [
        {
          name: 'a',
          image: 'x',
          ports: [{ containerPort: 53, protocol: 'UDP' }, { containerPort: 80 }],
          env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'PLAIN', value: 'v' }],
          livenessProbe: { httpGet: { port: 8080 } },
          readinessProbe: { grpc: { port: 9000 }, periodSeconds: 5 },
          startupProbe: { exec: { command: ['true'] }, failureThreshold: 30 },
          lifecycle: { preStop: { httpGet: { port: 'http', path: '/stop' } }, postStart: { exec: { command: ['x'] } } },
        },
      ],
      ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36' }],
    };
    defaultPodSpec(spec);
    const [c] = spec.containers as Array<Record<string, unknown>>;
    assert.deepEqual(c?.ports, [{ containerPort: 53, protocol: 'UDP' }, { containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(c?.env, [{ name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }, { name: 'PLAIN', value: 'v' }]);
    assert.deepEqual(c?.livenessProbe, {
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(c?.readinessProbe, { grpc: { port: 9000, service: '' }, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
    assert.deepEqual(c?.startupProbe, { exec: { command: ['true'] }, failureThreshold: 30, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1 });
    assert.deepEqual(c?.lifecycle, { preStop: { httpGet: { port: 'http', path: '/stop', scheme: 'HTTP' } }, postStart: { exec: { command: ['x'] } } });
    assert.deepEqual((spec.ephemeralContainers as unknown[])[0], {
      name: 'debug',
      image: 'busybox:1.36',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
    });
  });
});

describe('defaultPodSpec: volumes', () => {
  it('defaults each volume source as kube does', () => {
    const spec: Record<string, unknown> = {
      containers: [],
      volumes: [
        { name: 'scratch' },
        { name: 's', secret: { secretName: 's' } },
        { name: 'c', configMap: { name: 'c', defaultMode: 256 } },
        { name: 'h', hostPath: { path: '/var' } },
        { name: 'd', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
        {
          name: 'p',
          projected: { sources: [{ serviceAccountToken: { path: 'token' } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }] },
        },
        { name: 'r', rbd: { monitors: ['m'], image: 'i' } },
        { name: 'iscsi', iscsi: { targetPortal: 't', iqn: 'q', lun: 0 } },
        { name: 'az', azureDisk: { diskName: 'd', diskURI: 'u' } },
        { name: 'sio', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'x' } } },
        { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5Gi' } } } } } },
      ],
    };
    defaultPodSpec(spec);
    assert.deepEqual(spec.volumes, [
      { name: 'scratch', emptyDir: {} },
      { name: 's', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'c', configMap: { name: 'c', defaultMode: 256 } },
      { name: 'h', hostPath: { path: '/var', type: '' } },
      { name: 'd', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }], defaultMode: 420 } },
      {
        name: 'p',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
            { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }] } },
          ],
          defaultMode: 420,
        },
      },
      { name: 'r', rbd: { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } },
      { name: 'iscsi', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, iscsiInterface: 'default' } },
      { name: 'az', azureDisk: { diskName: 'd', diskURI: 'u', cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false } },
      { name: 'sio', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'x' }, storageMode: 'ThinProvisioned', fsType: 'xfs' } },
      {
        name: 'eph',
        ephemeral: {
          volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1536Mi' } }, volumeMode: 'Filesystem' } },
        },
      },
    ]);
  });
});

describe('defaultPodTemplateSpec', () => {
  it('creates the spec a template lacks, as kube’s struct is always there', () => {
    const template: Record<string, unknown> = { metadata: { labels: { app: 'a' } } };
    defaultPodTemplateSpec(template);
    assert.deepEqual(template, {
      metadata: { labels: { app: 'a' } },
      spec: { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' },
    });
  });
});

describe('image pull policy (parsers.ParseImageName)', () => {
  const cases: Array<[string, string, string]> = [
    ['nginx', 'latest', 'Always'],
    ['nginx:latest', 'latest', 'Always'],
    ['nginx:1.25', '1.25', 'IfNotPresent'],
    ['registry.example.com:5000/team/app', 'latest', 'Always'],
    ['localhost:5000/app:v1', 'v1', 'IfNotPresent'],
    ['nginx@sha256:' + 'a'.repeat(64), '', 'IfNotPresent'],
    ['nginx:1.0@sha256:' + 'b'.repeat(64), '1.0', 'IfNotPresent'],
    ['Nginx', '', 'IfNotPresent'],
    ['', '', 'IfNotPresent'],
    ['nginx@sha256:abc', '', 'IfNotPresent'],
  ];
  for (const [image, tag, policy] of cases) {
    it(`${JSON.stringify(image)} -> tag ${JSON.stringify(tag)}, ${policy}`, () => {
      assert.equal(imageTag(image), tag);
      assert.equal(defaultImagePullPolicy(image), policy);
    });
  }
});
