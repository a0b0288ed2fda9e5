import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { quantityFormatWrongMessage } from '../../../validation/quantity-syntax.js';
import { validatePodSpec } from './pod-spec.js';

const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const podErrs = (spec: Record<string, unknown>): string[] => messages(validatePodSpec(spec, 'spec', { isPod: true }));
const templateErrs = (spec: Record<string, unknown>): string[] => messages(validatePodSpec(spec, 'spec.template.spec', { isPod: false }));
const withContainer = (c: Record<string, unknown>, spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  containers: [{ name: 'app', image: 'nginx', ...c }],
  ...spec,
});

describe('pod spec: containers', () => {
  it('accepts a minimal spec', () => {
    assert.deepEqual(podErrs(withContainer({})), []);
  });

  it('requires unique names across containers and init containers', () => {
    assert.deepEqual(podErrs({ containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'x' }], initContainers: [{ name: 'a', image: 'x' }] }), [
      'spec.containers[1].name: Duplicate value: "a"',
      'spec.initContainers[0].name: Duplicate value: "a"',
    ]);
  });

  it('checks ports: number range, unique names, protocol', () => {
    assert.deepEqual(
      podErrs(withContainer({ ports: [{ name: 'http', containerPort: 70000 }, { name: 'http', containerPort: 81, protocol: 'HTTP' }, {}] })),
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].name: Duplicate value: "http"',
        'spec.containers[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].ports[2].containerPort: Required value',
      ],
    );
  });

  it('refuses unknown pull and termination message policies', () => {
    assert.deepEqual(podErrs(withContainer({ imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Log' })), [
      'spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "File", "FallbackToLogsOnError"',
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    ]);
  });

  it('refuses image whitespace on a pod but not on a template', () => {
    assert.deepEqual(podErrs(withContainer({ image: ' nginx' })), ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace']);
    assert.deepEqual(templateErrs(withContainer({ image: ' nginx' })), []);
  });

  it('forbids restartPolicy on regular containers and accepts sidecars', () => {
    assert.deepEqual(podErrs(withContainer({ restartPolicy: 'Always' })), ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']);
    assert.deepEqual(podErrs(withContainer({}, { initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always', readinessProbe: { exec: { command: ['true'] } } }] })), []);
    assert.deepEqual(podErrs(withContainer({}, { initContainers: [{ name: 'i', image: 'x', restartPolicy: 'Never', livenessProbe: { exec: { command: ['x'] }, successThreshold: 1 } }] })), [
      'spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    ]);
  });

  it('reports host port collisions across containers', () => {
    const ports = [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }];
    assert.deepEqual(podErrs({ containers: [{ name: 'a', image: 'x', ports }, { name: 'b', image: 'x', ports }] }), [
      'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"',
    ]);
  });
});

describe('pod spec: container resources', () => {
  const resources = (r: Record<string, unknown>): string[] => podErrs(withContainer({ resources: r }));

  it('parses quantities as kube does', () => {
    assert.deepEqual(resources({ limits: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1e3' }, requests: { cpu: 0.25, memory: '512Mi' } }), []);
  });

  it('reports an unparsable quantity at its own path with kube’s text', () => {
    assert.deepEqual(resources({ limits: { cpu: 'abc' } }), [`spec.containers[0].resources.limits[cpu]: Invalid value: "abc": ${quantityFormatWrongMessage}`]);
    assert.deepEqual(resources({ requests: { memory: '0.1mi' } }), [
      `spec.containers[0].resources.requests[memory]: Invalid value: "0.1mi": unable to parse quantity's suffix`,
    ]);
  });

  it('keeps requests within limits, and equal for extended resources', () => {
    assert.deepEqual(resources({ limits: { cpu: '1' }, requests: { cpu: '1500m' } }), [
      'spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1',
    ]);
    assert.deepEqual(resources({ limits: { 'example.com/gpu': '2' }, requests: { 'example.com/gpu': '1', cpu: '1' } }), [
      'spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2',
    ]);
    assert.deepEqual(resources({ requests: { 'example.com/gpu': '1' } }), [
      'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ]);
  });

  it('refuses negative and fractional-integer quantities and non-container resource names', () => {
    assert.deepEqual(resources({ limits: { memory: '-1Gi', 'example.com/gpu': '0.5', pods: '1' } }), [
      'spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer',
      'spec.containers[0].resources.limits[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
      'spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers',
    ]);
    assert.deepEqual(resources({ limits: { 'hugepages-2Mi': '2Mi' } }), ['spec.containers[0].resources: Forbidden: HugePages require cpu or memory']);
  });
});

describe('pod spec: env', () => {
  it('checks names and value sources', () => {
    assert.deepEqual(
      podErrs(
        withContainer({
          env: [
            { name: '' },
            { name: 'A=B', value: 'x' },
            { name: 'OK', value: 'v', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
            { name: 'NONE', valueFrom: {} },
            { name: 'TWO', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
            { name: 'BADPATH', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.restartPolicy' } } },
            { name: 'NOKEY', valueFrom: { configMapKeyRef: { name: 'cm' } } },
          ],
        }),
      ),
      [
        'spec.containers[0].env[0].name: Required value',
        "spec.containers[0].env[1].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='",
        'spec.containers[0].env[2].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
        'spec.containers[0].env[3].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        'spec.containers[0].env[4].valueFrom: Invalid value: "": may not have more than one field specified at a time',
        'spec.containers[0].env[5].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.restartPolicy": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
        'spec.containers[0].env[6].valueFrom.configMapKeyRef.key: Required value',
      ],
    );
  });

  it('needs exactly one envFrom source', () => {
    assert.deepEqual(podErrs(withContainer({ envFrom: [{ prefix: 'P_' }] })), ['spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`']);
  });
});

describe('pod spec: volumes and mounts', () => {
  it('checks names, sources and source fields', () => {
    assert.deepEqual(
      podErrs({
        containers: [{ name: 'a', image: 'x' }],
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'data', emptyDir: {} },
          { name: 'none' },
          { name: 'two', secret: { secretName: 's' }, configMap: { name: 'c' } },
          { name: 'sec', secret: { defaultMode: 512 } },
          { name: 'host', hostPath: { path: '/var', type: 'Dir' } },
          { name: 'pvc', persistentVolumeClaim: {} },
        ],
      }),
      [
        'spec.volumes[1].name: Duplicate value: "data"',
        'spec.volumes[2]: Required value: must specify a volume type',
        'spec.volumes[3].configMap: Forbidden: may not specify more than 1 volume type',
        'spec.volumes[4].secret.secretName: Required value',
        'spec.volumes[4].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
        'spec.volumes[5].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
        'spec.volumes[6].persistentVolumeClaim.claimName: Required value',
      ],
    );
  });

  it('needs mounts to name a valid volume at a unique path', () => {
    const volumes = [{ name: 'data', emptyDir: {} }];
    const volumeMounts = [
      { name: 'data', mountPath: '/data' },
      { name: 'missing', mountPath: '/data' },
      { name: 'data', mountPath: '/sub', subPath: '../up' },
    ];
    assert.deepEqual(podErrs(withContainer({ volumeMounts }, { volumes })), [
      'spec.containers[0].volumeMounts[1].name: Not found: "missing"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      `spec.containers[0].volumeMounts.subPath: Invalid value: "../up": must not contain '..'`,
    ]);
  });
});

describe('pod spec: probes and lifecycle', () => {
  it('needs one handler, sane numbers and a success threshold of 1 for liveness', () => {
    assert.deepEqual(
      podErrs(
        withContainer({
          livenessProbe: { successThreshold: 2, periodSeconds: -1 },
          readinessProbe: { httpGet: { path: '/', port: 8080, scheme: 'FTP' }, tcpSocket: { port: 80 }, successThreshold: 1, terminationGracePeriodSeconds: 5 },
          startupProbe: { tcpSocket: { port: 'HTTP' }, successThreshold: 1 },
          lifecycle: { preStop: { sleep: { seconds: 60 } } },
        }, { terminationGracePeriodSeconds: 30 }),
      ),
      [
        'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: must be non-negative and less than terminationGracePeriodSeconds (30)',
        'spec.containers[0].livenessProbe: Required value: must specify a handler type',
        'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        'spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
        'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
        'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
        'spec.containers[0].startupProbe.tcpSocket.port: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
    );
  });
});

describe('pod spec: pod-level fields', () => {
  it('checks restart and DNS policies', () => {
    assert.deepEqual(podErrs(withContainer({}, { restartPolicy: 'Sometimes', dnsPolicy: 'Google' })), [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]);
    assert.deepEqual(podErrs(withContainer({}, { dnsPolicy: 'None' })), ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']);
  });

  it('needs hostPort to equal containerPort under hostNetwork (unset is fine in a template)', () => {
    const spec = withContainer({ ports: [{ containerPort: 80, hostPort: 81 }, { containerPort: 82 }] }, { hostNetwork: true });
    assert.deepEqual(podErrs(spec), [
      'spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true',
      'spec.containers[0].ports[1].hostPort: Invalid value: 0: must match `containerPort` when `hostNetwork` is true',
    ]);
    assert.deepEqual(templateErrs(spec), ['spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true']);
  });

  it('checks the names the spec refers to', () => {
    const errs = podErrs(withContainer({}, { serviceAccountName: 'Bad', hostname: 'a.b', schedulingGates: [{ name: 'g' }, { name: 'g' }] }));
    assert.deepEqual(errs, [
      'spec.schedulingGates[1]: Duplicate value: "g"',
      `spec.serviceAccountName: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.hostname: Invalid value: "a.b": must not contain dots',
    ]);
  });
});

describe('pod spec: ephemeral containers', () => {
  it('allows only the debugging fields and needs an existing target', () => {
    const spec = withContainer({}, {
      ephemeralContainers: [
        { name: 'debug', image: 'busybox', targetContainerName: 'nope', ports: [{ containerPort: 80 }], volumeMounts: [] },
        { name: 'app', image: 'busybox', readinessProbe: { exec: { command: ['x'] } } },
      ],
    });
    assert.deepEqual(podErrs(spec), [
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[1].name: Duplicate value: "app"',
      'spec.ephemeralContainers[1].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });
});
