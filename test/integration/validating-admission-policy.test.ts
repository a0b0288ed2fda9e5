/**
 * ValidatingAdmissionPolicy against real etcd: a CEL rule denies a Deployment with more than 5
 * replicas in kube's words and code; Warn returns kube's Warning header and Audit records the
 * validation_failure annotation in the audit log; a ConfigMap param feeds the rule (and its
 * absence with parameterNotFoundAction Deny refuses); an expression that does not compile is
 * refused at create with kube's field path, and one that compiles but names a field the
 * Deployment schema lacks is reported in status.typeChecking; the check metrics count it all.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useServer, type TestResponse } from '../support/server.js';

const group = '/apis/admissionregistration.k8s.io/v1';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

async function auditFlags(dir: string): Promise<string[]> {
  await writeFile(join(dir, 'audit-policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources: [{group: apps, resources: [deployments]}]\n- level: None\n');
  return [`--audit-policy-file=${join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`];
}

const fx = useServer({}, () => auditFlags(fx.dir));

function deployment(name: string, replicas: number, labels: Record<string, string>) {
  const match = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: { replicas, selector: { matchLabels: match }, template: { metadata: { labels: match }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

function policy(name: string, testLabel: string, validations: unknown[], extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }],
        objectSelector: { matchLabels: { test: testLabel } },
      },
      validations,
      ...extra,
    },
  };
}

function binding(name: string, policyName: string, actions: string[], extra: Record<string, unknown> = {}) {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: actions, ...extra } };
}

async function create(path: string, body: unknown): Promise<TestResponse> {
  const res = await fx.request('POST', path, { body });
  assert.equal(res.status, 201, res.text);
  return res;
}

/** Retries req until check accepts its answer (the plugin learns of new policies through its informers). */
async function eventually(req: () => Promise<TestResponse>, check: (r: TestResponse) => boolean): Promise<TestResponse> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await req();
    if (check(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('ValidatingAdmissionPolicy', () => {
  it('denies a Deployment with more than 5 replicas in kube’s words, 422 Invalid', async () => {
    await create(`${group}/validatingadmissionpolicies`, policy('max-replicas', 'deny', [{ expression: 'object.spec.replicas <= 5', message: 'replicas must be no greater than 5' }]));
    await create(`${group}/validatingadmissionpolicybindings`, binding('max-replicas-binding', 'max-replicas', ['Deny']));
    const res = await eventually(
      () => fx.request('POST', `${deployments}?dryRun=All`, { body: deployment('web', 6, { test: 'deny' }) }),
      (r) => r.status !== 201,
    );
    assert.equal(res.status, 422, res.text);
    const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: replicas must be no greater than 5";
    assert.equal(res.json().message, `deployments.apps "web" is forbidden: ${message}`);
    assert.equal(res.json().reason, 'Invalid');
    assert.deepEqual(res.json().details, { name: 'web', group: 'apps', kind: 'deployments', causes: [{ message }] });
    assert.equal((await fx.request('POST', deployments, { body: deployment('web', 5, { test: 'deny' }) })).status, 201);
    // An update to 7 is refused too; a Deployment the policy does not select is not.
    const patched = await fx.request('PATCH', `${deployments}/web`, { rawBody: '{"spec":{"replicas":7}}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 422);
    assert.equal((await fx.request('POST', `${deployments}?dryRun=All`, { body: deployment('other', 9, { test: 'none' }) })).status, 201);
  });

  it('Warn answers with kube’s Warning header; Audit records validation_failure', async () => {
    await create(`${group}/validatingadmissionpolicies`, policy('warn-replicas', 'warn', [{ expression: 'object.spec.replicas < 3', messageExpression: "'replicas is ' + string(object.spec.replicas)" }]));
    await create(`${group}/validatingadmissionpolicybindings`, binding('warn-binding', 'warn-replicas', ['Warn', 'Audit']));
    const res = await eventually(
      () => fx.request('POST', deployments, { body: deployment('warned', 4, { test: 'warn' }), headers: { 'audit-id': 'vap-warn' } }),
      (r) => r.headers.warning !== undefined || r.status !== 201,
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.warning, `299 - "Validation failed for ValidatingAdmissionPolicy 'warn-replicas' with binding 'warn-binding': replicas is 4"`);
    const events = (await readFile(join(fx.dir, 'audit.log'), 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"vap-warn"'))
      .map((l) => JSON.parse(l) as { stage: string; annotations?: Record<string, string> });
    const done = events.find((e) => e.stage === 'ResponseComplete');
    assert.ok(done, 'audited');
    assert.deepEqual(JSON.parse(done.annotations?.['validation.policy.admission.k8s.io/validation_failure'] ?? 'null'), [
      { message: 'replicas is 4', policy: 'warn-replicas', binding: 'warn-binding', expressionIndex: 0, validationActions: ['Warn', 'Audit'] },
    ]);
  });

  it('reads a ConfigMap param; no param with parameterNotFoundAction Deny refuses', async () => {
    await create(
      `${group}/validatingadmissionpolicies`,
      policy('param-replicas', 'param', [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'at most ' + params.data.maxReplicas + ' replicas'", reason: 'Forbidden' }], {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      }),
    );
    await create(`${group}/validatingadmissionpolicybindings`, binding('param-binding', 'param-replicas', ['Deny'], { paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' } }));
    const missing = await eventually(
      () => fx.request('POST', `${deployments}?dryRun=All`, { body: deployment('p', 1, { test: 'param' }) }),
      (r) => r.status !== 201,
    );
    assert.equal(missing.status, 422);
    assert.match(missing.json().message, /ValidatingAdmissionPolicy 'param-replicas' with binding 'param-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);
    await create('/api/v1/namespaces/default/configmaps', { metadata: { name: 'limits' }, data: { maxReplicas: '3' } });
    const denied = await eventually(
      () => fx.request('POST', `${deployments}?dryRun=All`, { body: deployment('p', 4, { test: 'param' }) }),
      (r) => r.status === 403,
    );
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.json().reason, 'Forbidden');
    assert.match(denied.json().message, /denied request: at most 3 replicas$/);
    assert.equal((await fx.request('POST', `${deployments}?dryRun=All`, { body: deployment('p', 3, { test: 'param' }) })).status, 201);
  });

  it('refuses a policy whose expression does not compile, with kube’s field path', async () => {
    const res = await fx.request('POST', `${group}/validatingadmissionpolicies`, { body: policy('broken', 'x', [{ expression: 'object.spec.replicas < 3' }, { expression: 'nope.replicas > 1' }]) });
    assert.equal(res.status, 422, res.text);
    const cause = res.json().details.causes[0];
    assert.equal(cause.field, 'spec.validations[1].expression');
    assert.match(cause.message, /^Invalid value: "nope\.replicas > 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' \(in container ''\)/);
  });

  it('reports a field the Deployment schema lacks in status.typeChecking', async () => {
    await create(`${group}/validatingadmissionpolicies`, policy('typo', 'typo', [{ expression: 'object.spec.replica > 1' }]));
    const res = await eventually(
      () => fx.request('GET', `${group}/validatingadmissionpolicies/typo`),
      (r) => r.json().status?.observedGeneration === 1,
    );
    const status = res.json().status;
    assert.equal(status.observedGeneration, 1, res.text);
    assert.equal(status.typeChecking.expressionWarnings.length, 1);
    assert.equal(status.typeChecking.expressionWarnings[0].fieldRef, 'spec.validations[0].expression');
    assert.match(status.typeChecking.expressionWarnings[0].warning, /^apps\/v1, Kind=Deployment: ERROR: <input>:1:\d+: undefined field 'replica'/);
  });

  it('counts checks in apiserver_validating_admission_policy_check_total', async () => {
    const metrics = (await fx.request('GET', '/metrics')).text;
    assert.match(metrics, /apiserver_validating_admission_policy_check_total\{enforcement_action="deny",error_type="no_error",policy="max-replicas",policy_binding="max-replicas-binding"\} [1-9]/);
    assert.match(metrics, /apiserver_validating_admission_policy_check_total\{enforcement_action="warn",error_type="no_error",policy="warn-replicas",policy_binding="warn-binding"\} 1/);
    assert.match(metrics, /apiserver_validating_admission_policy_check_duration_seconds_bucket\{enforcement_action="audit",error_type="no_error",policy="warn-replicas",policy_binding="warn-binding",le="1"\} 1/);
  });
});
