import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { Informer } from '../../../controllers/informer.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import { ValidatingAdmissionPolicyPlugin } from './plugin.js';
import { PolicySource } from './policy-source.js';

function informer(objects: KubeObject[]): Informer {
  const byKey = new Map(objects.map((o) => [o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata.name ?? ''), o]));
  return { list: () => byKey.values(), get: (k: string) => byKey.get(k), addHandlers: () => undefined, synced: Promise.resolve(), hasSynced: () => true } as unknown as Informer;
}

function setup(policySpec: Record<string, unknown>, bindingSpec: Record<string, unknown>, namespaces: KubeObject[] = [], live: KubeObject[] = []) {
  const policy = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p', resourceVersion: '1' }, spec: { failurePolicy: 'Fail', ...policySpec } };
  const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b', resourceVersion: '1' }, spec: { policyName: 'p', validationActions: ['Deny'], ...bindingSpec } };
  const nsInformer = informer(namespaces);
  const informers = { get: (_g: string, r: string) => (r === 'namespaces' ? nsInformer : informer([])) } as unknown as SharedInformers;
  const observed: string[] = [];
  const plugin = new ValidatingAdmissionPolicyPlugin({
    source: new PolicySource(informer([policy as KubeObject]), informer([binding as KubeObject])),
    informers,
    authorizer: () => ({ name: 'test', authorize: () => ({ decision: 'Allow', reason: '' }) }),
    metrics: { observe: (...args) => observed.push(args.slice(0, 4).join('|')) },
    getNamespace: async (name) => live.find((n) => n.metadata.name === name),
  });
  return { plugin, observed };
}

const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'] }] };

function attrs(operation: 'CREATE' | 'DELETE', data: Record<string, string>, annotations: Map<string, string> = new Map(), namespace = 'default'): AdmissionAttributes {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace, labels: { tier: 'web' } }, data };
  return {
    operation,
    group: '',
    version: 'v1',
    resource: 'configmaps',
    subresource: '',
    kind: 'ConfigMap',
    namespace,
    name: 'cm',
    object: operation === 'DELETE' ? undefined : obj,
    oldObject: operation === 'DELETE' ? obj : undefined,
    dryRun: false,
    userInfo: { name: 'alice', groups: ['dev'] },
    addAnnotation: (k, v) => {
      annotations.set(k, v);
      return undefined;
    },
  };
}

const ctx = () => ({ warnings: [] as string[] }) as unknown as RequestContext;

async function denial(p: Promise<void>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  assert.fail('expected a denial');
}

describe('ValidatingAdmissionPolicy plugin', () => {
  it('uses variables, skips requests matchConditions reject, and falls back to the expression as message', async () => {
    const { plugin } = setup(
      {
        matchConstraints: rules,
        matchConditions: [{ name: 'not-exempt', expression: "!has(object.data.exempt)" }],
        variables: [{ name: 'size', expression: 'object.data.size()' }],
        validations: [{ expression: 'variables.size < 2' }],
      },
      {},
    );
    await plugin.validate(attrs('CREATE', { a: '1' }), ctx());
    await plugin.validate(attrs('CREATE', { a: '1', b: '2', exempt: 'y' }), ctx());
    const err = await denial(plugin.validate(attrs('CREATE', { a: '1', b: '2' }), ctx()));
    assert.equal(err.status.code, 422);
    assert.equal(err.message, `configmaps "cm" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: variables.size < 2`);
  });

  it('denies on a runtime error with failurePolicy Fail, admits with Ignore', async () => {
    const validations = [{ expression: "object.data.missing == 'x'" }];
    const fail = setup({ matchConstraints: rules, validations }, {});
    const err = await denial(fail.plugin.validate(attrs('CREATE', { a: '1' }), ctx()));
    assert.match(err.message, /denied request: expression 'object.data.missing == 'x'' resulted in error: no such key: missing$/);
    assert.ok(fail.observed.includes('p|b|invalid_error|deny'));
    const ignore = setup({ matchConstraints: rules, validations, failurePolicy: 'Ignore' }, {});
    await ignore.plugin.validate(attrs('CREATE', { a: '1' }), ctx());
  });

  it('publishes audit annotations under the policy name and sees oldObject on DELETE', async () => {
    const annotations = new Map<string, string>();
    const { plugin } = setup(
      { matchConstraints: rules, validations: [{ expression: 'object == null && oldObject.data.a == "1"' }], auditAnnotations: [{ key: 'size', valueExpression: "'data has ' + string(oldObject.data.size()) + ' keys'" }] },
      {},
    );
    await plugin.validate(attrs('DELETE', { a: '1' }, annotations), ctx());
    assert.equal(annotations.get('p/size'), 'data has 1 keys');
  });

  it('applies namespaceSelector, objectSelector and excludeResourceRules', async () => {
    const namespaces = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev', labels: { env: 'dev' } } },
    ] as KubeObject[];
    const { plugin } = setup(
      {
        matchConstraints: { ...rules, namespaceSelector: { matchLabels: { env: 'prod' } }, excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] }] },
        validations: [{ expression: 'false', message: 'no' }],
      },
      { matchResources: { objectSelector: { matchLabels: { tier: 'web' } } } },
      namespaces,
    );
    await plugin.validate(attrs('CREATE', {}, new Map(), 'dev'), ctx());
    await plugin.validate(attrs('DELETE', {}, new Map(), 'prod'), ctx());
    const err = await denial(plugin.validate(attrs('CREATE', {}, new Map(), 'prod'), ctx()));
    assert.match(err.message, /denied request: no$/);
  });

  it('reads a namespace the informer has not seen yet', async () => {
    const fresh = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh', labels: { env: 'prod' } } }] as KubeObject[];
    const { plugin } = setup({ matchConstraints: { ...rules, namespaceSelector: { matchLabels: { env: 'prod' } } }, validations: [{ expression: "namespaceObject.metadata.name != 'fresh'", message: 'fresh' }] }, {}, [], fresh);
    const err = await denial(plugin.validate(attrs('CREATE', {}, new Map(), 'fresh'), ctx()));
    assert.match(err.message, /denied request: fresh$/);
  });

  it('stops an expression at kube’s per-expression cost limit', async () => {
    const big = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`k${i}`, 'v']));
    const heavy = 'object.data.all(a, object.data.all(b, object.data.all(c, a != "")))';
    const { plugin } = setup({ matchConstraints: rules, validations: [{ expression: heavy }] }, {});
    const err = await denial(plugin.validate(attrs('CREATE', big), ctx()));
    assert.match(err.message, /resulted in error: operation cancelled: actual cost limit exceeded$/);
  });
});
