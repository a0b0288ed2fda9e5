import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { QuotaObject } from '../../../quota/interface.js';
import { EvaluatorRegistry } from '../../../quota/registry.js';
import { resourceListFromJSON, resourceListToJSON } from '../../../quota/resource-list.js';
import { testAttributes } from '../test-attributes.js';
import { checkRequest } from './check-request.js';
import type { LimitedResource, WorkingQuota } from './interface.js';

const registry = new EvaluatorRegistry();
const pods = registry.getOrCreate('', 'pods');
const pvcs = registry.getOrCreate('', 'persistentvolumeclaims');

function quota(name: string, hard: Record<string, string>, used: Record<string, string>, spec: QuotaObject['spec'] = {}): WorkingQuota {
  const object: QuotaObject = { metadata: { name, namespace: 'ns', resourceVersion: '5' }, spec: { hard, ...spec }, status: { hard, used } };
  return { object, hard: resourceListFromJSON(hard), used: resourceListFromJSON(used) };
}

function pod(name: string, resources?: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i', ...(resources ? { resources } : {}) }], ...extra } } as KubeObject;
}

function refusal(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err;
  }
  assert.fail('not refused');
}

describe('checkRequest', () => {
  it('charges a create against every matching quota and refuses past the hard limit with kube message', () => {
    const qs = [quota('a', { pods: '3' }, { pods: '2' }), quota('b', { secrets: '1' }, { secrets: '0' })];
    const out = checkRequest(qs, testAttributes({ resource: 'pods', object: pod('p') }), pods, []);
    assert.deepEqual(resourceListToJSON(out[0]?.used ?? new Map()), { pods: '3' });
    assert.equal(out[1], qs[1]);
    const err = refusal(() => checkRequest(out, testAttributes({ resource: 'pods', object: pod('q') }), pods, []));
    assert.equal(err.code, 403);
    assert.equal(err.message, 'pods "q" is forbidden: exceeded quota: a, requested: pods=1, used: pods=3, limited: pods=3');
  });

  it('names generateName when there is no name, and refuses quotas whose usage is not known yet', () => {
    const gen = { metadata: { generateName: 'web-' }, spec: { containers: [] } } as unknown as KubeObject;
    const err = refusal(() => checkRequest([quota('a', { pods: '0' }, { pods: '0' })], testAttributes({ resource: 'pods', object: gen }), pods, []));
    assert.match(err.message, /^pods "web-" is forbidden: exceeded quota: a, /);
    const unknown = refusal(() => checkRequest([quota('a', { pods: '1', 'count/pods': '1' }, {})], testAttributes({ resource: 'pods', object: pod('p') }), pods, []));
    assert.equal(unknown.message, 'pods "p" is forbidden: status unknown for quota: a, resources: count/pods,pods');
  });

  it('refuses a pod that does not state a constrained resource', () => {
    const err = refusal(() => checkRequest([quota('compute', { 'limits.memory': '1Gi' }, { 'limits.memory': '0' })], testAttributes({ resource: 'pods', object: pod('p') }), pods, []));
    assert.equal(err.message, 'pods "p" is forbidden: failed quota: compute: must specify limits.memory for: c');
  });

  it('scoped quotas only see pods in their scope', () => {
    const qs = [quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] })];
    const sized = pod('p', { requests: { cpu: '1' }, limits: { cpu: '1' } });
    assert.equal(checkRequest(qs, testAttributes({ resource: 'pods', object: sized }), pods, []), qs);
    refusal(() => checkRequest(qs, testAttributes({ resource: 'pods', object: pod('p') }), pods, []));
  });

  it('charges an update by its growth only, and never below zero', () => {
    const qs = [quota('st', { 'requests.storage': '10Gi' }, { 'requests.storage': '5Gi' })];
    const claim = (size: string, rv?: string) =>
      ({ metadata: { name: 'c', ...(rv ? { resourceVersion: rv } : {}) }, spec: { resources: { requests: { storage: size } } } }) as KubeObject;
    const grow = checkRequest(qs, testAttributes({ operation: 'UPDATE', resource: 'persistentvolumeclaims', object: claim('3Gi'), oldObject: claim('1Gi', '7') }), pvcs, []);
    assert.equal(grow[0]?.used.get('requests.storage')?.toString(), '7Gi');
    const shrink = checkRequest(qs, testAttributes({ operation: 'UPDATE', resource: 'persistentvolumeclaims', object: claim('1Gi'), oldObject: claim('3Gi', '7') }), pvcs, []);
    assert.equal(shrink, qs);
  });

  it('charges a pod resize by its growth', () => {
    const qs = [quota('cpu', { 'requests.cpu': '1' }, { 'requests.cpu': '500m' })];
    const sized = (cpu: string, rv?: string) => {
      const p = pod('p', { requests: { cpu }, limits: { cpu } });
      if (rv) p.metadata.resourceVersion = rv;
      return p;
    };
    const resize = (to: string) => testAttributes({ operation: 'UPDATE', resource: 'pods', subresource: 'resize', object: sized(to), oldObject: sized('500m', '9') });
    assert.equal(checkRequest(qs, resize('700m'), pods, [])[0]?.used.get('requests.cpu')?.toString(), '700m');
    assert.match(refusal(() => checkRequest(qs, resize('2'), pods, [])).message, /exceeded quota: cpu, requested: requests.cpu=1500m, used: requests.cpu=500m, limited: requests.cpu=1$/);
  });

  it('limited resources need a covering quota; limited scopes too', () => {
    const limited: LimitedResource[] = [{ apiGroup: '', resource: 'pods', matchContains: ['requests.cpu'], matchScopes: [] }];
    const sized = pod('p', { requests: { cpu: '1' }, limits: { cpu: '1' } });
    const err = refusal(() => checkRequest([], testAttributes({ resource: 'pods', object: sized }), pods, limited));
    assert.equal(err.message, 'pods "p" is forbidden: insufficient quota to consume: requests.cpu');
    const covered = checkRequest([quota('cpu', { 'requests.cpu': '2' }, { 'requests.cpu': '0' })], testAttributes({ resource: 'pods', object: sized }), pods, limited);
    assert.equal(covered[0]?.used.get('requests.cpu')?.toString(), '1');
    assert.equal(checkRequest([], testAttributes({ resource: 'pods', object: pod('p') }), pods, limited).length, 0);

    const scoped: LimitedResource[] = [{ apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] }];
    const high = pod('h', undefined, { priorityClassName: 'high' });
    const scopeErr = refusal(() => checkRequest([], testAttributes({ resource: 'pods', object: high }), pods, scoped));
    assert.equal(scopeErr.code, 500);
    assert.equal(scopeErr.message, 'insufficient quota to match these scopes: [{PriorityClass In [high]}]');
    const hq = [quota('hq', { pods: '5' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } })];
    assert.equal(checkRequest(hq, testAttributes({ resource: 'pods', object: high }), pods, scoped)[0]?.used.get('pods')?.toString(), '1');
  });
});
