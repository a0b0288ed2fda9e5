import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { WebhookAdmissionMetrics } from '../../../observability/webhook-admission-metrics.js';
import { internalContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import { compileWebhook } from './accessor.js';
import type { WebhookCaller } from './caller.js';
import { CallingWebhookError } from './errors.js';
import { MutatingDispatcher } from './mutating-dispatcher.js';
import type { AdmissionResult } from './review.js';
import type { WebhookSpec } from './types.js';
import { VersionedAttributes } from './versioned.js';

const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
const spec = (name: string, extra: Partial<WebhookSpec> = {}): WebhookSpec => ({ name, clientConfig: { url: 'https://x/' }, rules, sideEffects: 'None', failurePolicy: 'Fail', ...extra });

function setup(answers: Record<string, (obj: KubeObject) => AdmissionResult | Error>) {
  const calls: string[] = [];
  const caller = {
    call: async (hook: { name: string }, va: VersionedAttributes) => {
      calls.push(hook.name);
      const a = answers[hook.name]!(va.object as KubeObject);
      if (a instanceof Error) throw a;
      return a;
    },
  } as unknown as WebhookCaller;
  const counted: string[] = [];
  const metrics: WebhookAdmissionMetrics = { observeWebhook: () => undefined, observeRejection: () => undefined, observeFailOpen: (n) => void counted.push(n) };
  return { calls, counted, dispatcher: new MutatingDispatcher(caller, async () => undefined, metrics) };
}

function attrs(annotations: Record<string, string>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'configmaps',
    subresource: '',
    kind: 'ConfigMap',
    namespace: 'default',
    name: 'cm',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } } as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { name: 'u', groups: [] },
    addAnnotation: (k, v) => void (annotations[k] = v),
  };
}

const patch = (ops: unknown[]): AdmissionResult => ({ allowed: true, patch: ops, patchType: 'JSONPatch', auditAnnotations: {}, warnings: [] });
const allow: AdmissionResult = { allowed: true, auditAnnotations: {}, warnings: [] };

describe('mutating dispatcher', () => {
  it('applies patches in order, writes the result back, and reinvokes IfNeeded webhooks once', async () => {
    const { calls, dispatcher } = setup({
      a: (o) => (o.metadata.labels?.b ? allow : patch([{ op: 'add', path: '/metadata/annotations', value: { a: '1' } }])),
      b: () => patch([{ op: 'add', path: '/metadata/labels', value: { b: '1' } }]),
      c: () => allow,
    });
    const hooks = [compileWebhook('1', spec('a', { reinvocationPolicy: 'IfNeeded' }), 0), compileWebhook('2', spec('b'), 0), compileWebhook('3', spec('c', { reinvocationPolicy: 'IfNeeded' }), 0)];
    const notes: Record<string, string> = {};
    const a = attrs(notes);
    await dispatcher.dispatch(hooks, new VersionedAttributes(a), internalContext({ verb: 'create', resource: 'configmaps' }));
    assert.deepEqual(calls, ['a', 'b', 'c', 'a'], 'c was invoked after the last change: not reinvoked');
    assert.deepEqual(a.object?.metadata, { name: 'cm', annotations: { a: '1' }, labels: { b: '1' } });
    assert.deepEqual(Object.keys(notes).sort(), [
      'mutation.webhook.admission.k8s.io/round_0_index_0',
      'mutation.webhook.admission.k8s.io/round_0_index_1',
      'mutation.webhook.admission.k8s.io/round_0_index_2',
      'mutation.webhook.admission.k8s.io/round_1_index_0',
    ]);
    assert.equal(notes['mutation.webhook.admission.k8s.io/round_1_index_0'], '{"configuration":"1","webhook":"a","mutated":false}');
  });

  it('fails closed or open on a call error, by failurePolicy', async () => {
    const { dispatcher, counted } = setup({ down: () => new CallingWebhookError('down', 'failed to call webhook: boom', 503) });
    await assert.rejects(dispatcher.dispatch([compileWebhook('c', spec('down'), 0)], new VersionedAttributes(attrs({})), internalContext({ verb: 'create', resource: 'configmaps' })), {
      message: 'Internal error occurred: failed calling webhook "down": failed to call webhook: boom',
    });
    const notes: Record<string, string> = {};
    await dispatcher.dispatch([compileWebhook('c', spec('down', { failurePolicy: 'Ignore' }), 0)], new VersionedAttributes(attrs(notes)), internalContext({ verb: 'create', resource: 'configmaps' }));
    assert.deepEqual(counted, ['down']);
    assert.equal(notes['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0'], 'down');
  });
});
