import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { updatablePodSpecFields } from '../shared/pod-update.js';
import { deleteOptions, requestContext } from '../shared/testing.js';
import { podGracePeriod, podSelectableFields, podStatusStrategy, podStrategy } from './strategy.js';

const ctx = requestContext('POST', '/api/v1/namespaces/ns/pods');
const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const pod = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  ...extra,
});

describe('pod strategy: create', () => {
  it('resets status to Pending with the QoS class', () => {
    const obj = pod({ containers: [{ name: 'a', image: 'i', resources: { limits: { cpu: '1', memory: '1Gi' } } }] }, { status: { phase: 'Running', podIP: '1.2.3.4' } });
    podStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual(obj.status, { phase: 'Pending', qosClass: 'Guaranteed' });
    const plain = pod({});
    podStrategy.prepareForCreate(ctx, plain);
    assert.deepEqual(plain.status, { phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('marks a gated pod as not scheduled', () => {
    const obj = pod({ schedulingGates: [{ name: 'wait' }] });
    podStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual((obj.status as { conditions: unknown[] }).conditions, [
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ]);
  });

  it('requires containers, container names and images', () => {
    assert.deepEqual(messages(podStrategy.validate(ctx, { metadata: { name: 'p' }, spec: {} })), ['spec.containers: Required value']);
    assert.deepEqual(messages(podStrategy.validate(ctx, pod({ containers: [{ image: 'x' }, { name: 'Bad_Name' }] }))), [
      'spec.containers[0].name: Required value',
      `spec.containers[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.containers[1].image: Required value',
    ]);
  });

  it('refuses duplicate container names across init and regular containers', () => {
    assert.deepEqual(
      messages(podStrategy.validate(ctx, pod({ containers: [{ name: 'a', image: 'i' }, { name: 'a', image: 'i' }], initContainers: [{ name: 'a', image: 'i' }] }))),
      ['spec.containers[1].name: Duplicate value: "a"', 'spec.initContainers[0].name: Duplicate value: "a"'],
    );
  });

  it('checks ports, resources and restartPolicy', () => {
    assert.deepEqual(
      messages(
        podStrategy.validate(
          ctx,
          pod({
            restartPolicy: 'Sometimes',
            containers: [{ name: 'a', image: 'i', ports: [{ containerPort: 70000 }], resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } }],
          }),
        ),
      ),
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    );
  });

  it('forbids ephemeral containers and a node name while gated', () => {
    assert.deepEqual(messages(podStrategy.validate(ctx, pod({ ephemeralContainers: [{ name: 'dbg', image: 'b' }], nodeName: 'n', schedulingGates: [{ name: 'g' }] }))), [
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
      'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
    ]);
  });

  it('warns when the name is not a DNS label', () => {
    assert.deepEqual(podStrategy.warningsOnCreate(ctx, { metadata: { name: 'a.b' } }), [
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
    assert.deepEqual(podStrategy.warningsOnCreate(ctx, { metadata: { name: 'ab' } }), []);
  });
});

describe('pod strategy: update', () => {
  const old = pod({ nodeName: 'n1', tolerations: [{ key: 'k', operator: 'Exists' }], activeDeadlineSeconds: 100 }, { status: { phase: 'Running' } });

  it('keeps the stored status', () => {
    const next = pod({}, { status: { phase: 'Failed' } });
    podStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, { phase: 'Running' });
  });

  it('allows image changes, lower deadlines and added tolerations', () => {
    const next = structuredClone(old);
    const spec = next.spec as Record<string, any>;
    spec.containers[0].image = 'nginx:2';
    spec.activeDeadlineSeconds = 50;
    spec.tolerations.push({ key: 'other', operator: 'Exists' });
    assert.deepEqual(podStrategy.validateUpdate(ctx, next, old), []);
  });

  it("forbids other spec changes with kube's message", () => {
    const next = structuredClone(old);
    (next.spec as Record<string, unknown>).nodeName = 'n2';
    const errs = podStrategy.validateUpdate(ctx, next, old);
    assert.equal(errs.length, 1);
    assert.equal(errs[0]?.field, 'spec');
    assert.equal(errs[0]?.type, 'FieldValueForbidden');
    assert.ok(errs[0]?.detail.startsWith(`pod updates may not change fields other than ${updatablePodSpecFields}\n`));
    assert.match(errs[0]?.detail ?? '', /- \tnodeName: "n1",\n\+ \tnodeName: "n2"/);
  });

  it('refuses added or removed containers, raised deadlines and changed tolerations', () => {
    const more = structuredClone(old);
    (more.spec as Record<string, any>).containers.push({ name: 'b', image: 'i' });
    assert.deepEqual(messages(podStrategy.validateUpdate(ctx, more, old)), ['spec.containers: Forbidden: pod updates may not add or remove containers']);
    const later = structuredClone(old);
    (later.spec as Record<string, any>).activeDeadlineSeconds = 200;
    assert.deepEqual(messages(podStrategy.validateUpdate(ctx, later, old)), [
      'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
    ]);
    const tol = structuredClone(old);
    (tol.spec as Record<string, any>).tolerations = [{ key: 'k', operator: 'Equal', value: 'v' }];
    assert.deepEqual(messages(podStrategy.validateUpdate(ctx, tol, old)), [
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
  });

  it('allows terminationGracePeriodSeconds from negative to 1 only', () => {
    const neg = pod({ terminationGracePeriodSeconds: -5 });
    const one = pod({ terminationGracePeriodSeconds: 1 });
    assert.deepEqual(podStrategy.validateUpdate(ctx, one, neg), []);
    assert.equal(podStrategy.validateUpdate(ctx, pod({ terminationGracePeriodSeconds: 2 }), neg).length, 1);
  });
});

describe('pod graceful deletion', () => {
  const scheduled = pod({ nodeName: 'n1' });
  it('uses the requested period, else the spec, else 30', () => {
    assert.equal(podGracePeriod(scheduled, deleteOptions({ gracePeriodSeconds: 5 })), 5);
    assert.equal(podGracePeriod(pod({ nodeName: 'n1', terminationGracePeriodSeconds: 12 }), deleteOptions()), 12);
    assert.equal(podGracePeriod(scheduled, deleteOptions()), 30);
  });
  it('is immediate for unscheduled or finished pods, and at least 1 when negative', () => {
    assert.equal(podGracePeriod(pod({}), deleteOptions({ gracePeriodSeconds: 10 })), 0);
    assert.equal(podGracePeriod({ ...scheduled, status: { phase: 'Succeeded' } }, deleteOptions()), 0);
    assert.equal(podGracePeriod({ ...scheduled, status: { phase: 'Failed' } }, deleteOptions()), 0);
    assert.equal(podGracePeriod(pod({ nodeName: 'n1', terminationGracePeriodSeconds: -3 }), deleteOptions()), 1);
  });
});

describe('pod status strategy', () => {
  const old = pod(
    { nodeName: 'n1' },
    { metadata: { name: 'p', namespace: 'ns', labels: { a: '1' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u' }] }, status: { phase: 'Pending', qosClass: 'BestEffort' } },
  );

  it('keeps spec and owner references, back-fills qosClass, lets labels change', () => {
    const next = structuredClone(old);
    (next.spec as Record<string, unknown>).nodeName = 'elsewhere';
    next.metadata.ownerReferences = [];
    next.metadata.labels = { a: '2' };
    next.status = { phase: 'Running' };
    podStatusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, old.spec);
    assert.deepEqual(next.metadata.ownerReferences, old.metadata.ownerReferences);
    assert.deepEqual(next.metadata.labels, { a: '2' });
    assert.deepEqual(next.status, { phase: 'Running', qosClass: 'BestEffort' });
    assert.deepEqual(podStatusStrategy.validateUpdate(ctx, next, old), []);
  });

  it('refuses a different qosClass', () => {
    const next = { ...structuredClone(old), status: { phase: 'Running', qosClass: 'Guaranteed' } };
    assert.deepEqual(messages(podStatusStrategy.validateUpdate(ctx, next, old)), ['status.qosClass: Invalid value: "Guaranteed": field is immutable']);
  });
});

describe('pod field selectors', () => {
  it("gives kube's field set, booleans as text and missing as empty", () => {
    assert.deepEqual(podSelectableFields(pod({ nodeName: 'n1', hostNetwork: true }, { status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }] } })), {
      'spec.nodeName': 'n1',
      'spec.restartPolicy': '',
      'spec.schedulerName': '',
      'spec.serviceAccountName': '',
      'spec.hostNetwork': 'true',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.5',
      'status.nominatedNodeName': '',
    });
    assert.equal(podSelectableFields(pod({}))['spec.hostNetwork'], 'false');
    assert.equal(podStrategy.selectableFields.aliases['spec.host'], 'spec.nodeName');
    assert.ok(podStrategy.selectableFields.extra.includes('status.podIPs'));
  });
});
