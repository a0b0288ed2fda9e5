import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mandatoryFlowSchemas, suggestedFlowSchemas } from '../../controllers/bootstrap-objects/flowcontrol-defaults.js';
import type { UserInfo } from '../../request/context.js';
import { parseRequestInfo, type RequestInfo } from '../../request/request-info.js';
import { classify } from './classify.js';
import { digest } from './digest.js';
import type { FlowSchemaObject, PriorityLevelObject } from './interface.js';
import { mandatoryPriorityLevels, suggestedPriorityLevels } from '../../controllers/bootstrap-objects/flowcontrol-defaults.js';

const ri = (method: string, path: string): RequestInfo => parseRequestInfo(method, path, new URLSearchParams());
const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups });
const withUid = <T extends { metadata: { name?: string } }>(o: T): T => ({ ...structuredClone(o), metadata: { ...o.metadata, uid: `uid-${o.metadata.name}` } });
const levels = [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(withUid) as PriorityLevelObject[];
const defaults = [...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(withUid) as FlowSchemaObject[];

function fs(name: string, precedence: number, rule: object, level = 'global-default', distinguisher?: string): FlowSchemaObject {
  return { metadata: { name, uid: `uid-${name}` }, spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}), rules: [rule as never] } };
}
const schemaOf = (schemas: FlowSchemaObject[], u: UserInfo, r: RequestInfo): string | undefined => classify(digest(schemas, levels).schemas, u, r)?.flowSchemaName;

describe('APF classification', () => {
  it('kube\'s default configuration sends each well-known client to its schema', () => {
    const d = digest(defaults, levels);
    const c = (u: UserInfo, r: RequestInfo) => classify(d.schemas, u, r);
    assert.equal(c(user('admin', 'system:masters', 'system:authenticated'), ri('GET', '/api/v1/pods'))?.priorityLevelName, 'exempt');
    assert.equal(c(user('system:anonymous', 'system:unauthenticated'), ri('GET', '/readyz'))?.flowSchemaName, 'probes');
    const node = user('system:node:n1', 'system:nodes', 'system:authenticated');
    assert.equal(c(node, ri('PUT', '/api/v1/nodes/n1/status'))?.flowSchemaName, 'system-node-high');
    assert.equal(c(node, ri('GET', '/api/v1/namespaces/a/pods'))?.flowSchemaName, 'system-nodes');
    const kcm = user('system:kube-controller-manager', 'system:authenticated');
    assert.equal(c(kcm, ri('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm'))?.flowSchemaName, 'system-leader-election');
    assert.equal(c(kcm, ri('PUT', '/api/v1/namespaces/a/endpoints/x'))?.flowSchemaName, 'endpoint-controller');
    const kcmList = c(kcm, ri('GET', '/api/v1/namespaces/a/pods'));
    assert.equal(kcmList?.flowSchemaName, 'kube-controller-manager');
    assert.equal(kcmList?.flowDistinguisher, 'a', 'ByNamespace');
    const sa = user('system:serviceaccount:kube-system:foo', 'system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated');
    assert.equal(c(sa, ri('GET', '/api/v1/pods'))?.flowSchemaName, 'kube-system-service-accounts');
    assert.equal(c(sa, ri('GET', '/api/v1/namespaces/kube-system/configmaps/x'))?.flowSchemaName, 'system-leader-election');
    assert.equal(c(sa, ri('GET', '/api/v1/namespaces/a/configmaps/x'))?.flowSchemaName, 'workload-leader-election');
    const other = user('system:serviceaccount:apps:bar', 'system:serviceaccounts', 'system:authenticated');
    assert.equal(c(other, ri('GET', '/api/v1/pods'))?.flowSchemaName, 'service-accounts');
    const alice = c(user('alice', 'system:authenticated'), ri('GET', '/api/v1/pods'));
    assert.equal(alice?.flowSchemaName, 'global-default');
    assert.equal(alice?.flowSchemaUID, 'uid-global-default');
    assert.equal(alice?.priorityLevelUID, 'uid-global-default');
    assert.equal(alice?.flowDistinguisher, 'alice', 'ByUser');
  });

  it('precedence first, then name', () => {
    const all = { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
    assert.equal(schemaOf([fs('b', 10, all), fs('a', 20, all)], user('u'), ri('GET', '/x')), 'b');
    assert.equal(schemaOf([fs('b', 10, all), fs('a', 10, all)], user('u'), ri('GET', '/x')), 'a');
  });

  it('subjects: users, groups, service accounts by name and by namespace', () => {
    const rule = (subject: object) => ({ subjects: [subject], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] });
    const only = (subject: object) => [fs('s', 10, rule(subject))];
    assert.equal(schemaOf(only({ kind: 'User', user: { name: 'bob' } }), user('bob'), ri('GET', '/x')), 's');
    assert.equal(schemaOf(only({ kind: 'User', user: { name: 'bob' } }), user('bobby'), ri('GET', '/x')), undefined);
    assert.equal(schemaOf(only({ kind: 'User', user: { name: '*' } }), user('anyone'), ri('GET', '/x')), 's');
    assert.equal(schemaOf(only({ kind: 'Group', group: { name: 'devs' } }), user('x', 'ops', 'devs'), ri('GET', '/x')), 's');
    assert.equal(schemaOf(only({ kind: 'Group', group: { name: 'devs' } }), user('x', 'ops'), ri('GET', '/x')), undefined);
    const sa = { kind: 'ServiceAccount', serviceAccount: { namespace: 'ns1', name: 'robot' } };
    assert.equal(schemaOf(only(sa), user('system:serviceaccount:ns1:robot'), ri('GET', '/x')), 's');
    assert.equal(schemaOf(only(sa), user('system:serviceaccount:ns2:robot'), ri('GET', '/x')), undefined);
    const anySA = { kind: 'ServiceAccount', serviceAccount: { namespace: 'ns1', name: '*' } };
    assert.equal(schemaOf(only(anySA), user('system:serviceaccount:ns1:whoever'), ri('GET', '/x')), 's');
    assert.equal(schemaOf(only(anySA), user('system:serviceaccount:ns10:whoever'), ri('GET', '/x')), undefined);
    assert.equal(schemaOf(only(anySA), user('ns1:whoever'), ri('GET', '/x')), undefined);
  });

  it('resource rules: verbs, groups, resources and subresources, namespaces and cluster scope', () => {
    const subjects = [{ kind: 'User', user: { name: 'u' } }];
    const one = (r: object) => [fs('s', 10, { subjects, resourceRules: [r] })];
    const base = { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['ns1'] };
    const u = user('u');
    assert.equal(schemaOf(one(base), u, ri('GET', '/apis/apps/v1/namespaces/ns1/deployments')), 's');
    assert.equal(schemaOf(one(base), u, ri('GET', '/apis/apps/v1/namespaces/ns1/deployments/web')), 's');
    assert.equal(schemaOf(one(base), u, ri('DELETE', '/apis/apps/v1/namespaces/ns1/deployments/web')), undefined, 'verb');
    assert.equal(schemaOf(one(base), u, ri('GET', '/apis/extensions/v1beta1/namespaces/ns1/deployments')), undefined, 'group');
    assert.equal(schemaOf(one(base), u, ri('GET', '/apis/apps/v1/namespaces/ns2/deployments')), undefined, 'namespace');
    assert.equal(schemaOf(one(base), u, ri('GET', '/apis/apps/v1/deployments')), undefined, 'cluster-wide list needs clusterScope');
    assert.equal(schemaOf(one({ ...base, clusterScope: true }), u, ri('GET', '/apis/apps/v1/deployments')), 's');
    assert.equal(schemaOf(one({ ...base, namespaces: ['*'] }), u, ri('GET', '/apis/apps/v1/namespaces/any/deployments')), 's');
    assert.equal(schemaOf(one(base), u, ri('GET', '/apis/apps/v1/namespaces/ns1/deployments/web/status')), undefined, 'subresource');
    assert.equal(schemaOf(one({ ...base, resources: ['deployments/status'] }), u, ri('GET', '/apis/apps/v1/namespaces/ns1/deployments/web/status')), 's');
    assert.equal(schemaOf(one({ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }), u, ri('GET', '/healthz')), undefined, 'resource rules never match non-resource requests');
    assert.equal(schemaOf(one({ verbs: ['watch'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }), u, parseRequestInfo('GET', '/api/v1/namespaces/a/pods', new URLSearchParams('watch=true'))), 's');
  });

  it('non-resource rules: exact paths, "*" and trailing-"*" prefixes', () => {
    const subjects = [{ kind: 'User', user: { name: 'u' } }];
    const one = (urls: string[], verbs = ['get']) => [fs('s', 10, { subjects, nonResourceRules: [{ verbs, nonResourceURLs: urls }] })];
    const u = user('u');
    assert.equal(schemaOf(one(['/healthz']), u, ri('GET', '/healthz')), 's');
    assert.equal(schemaOf(one(['/healthz']), u, ri('GET', '/healthz/etcd')), undefined);
    assert.equal(schemaOf(one(['/healthz/*']), u, ri('GET', '/healthz/etcd')), 's');
    assert.equal(schemaOf(one(['/metrics*']), u, ri('GET', '/metricsx')), 's');
    assert.equal(schemaOf(one(['*']), u, ri('GET', '/anything')), 's');
    assert.equal(schemaOf(one(['/healthz']), u, ri('POST', '/healthz')), undefined, 'verb');
    assert.equal(schemaOf(one(['/api/*'], ['*']), u, ri('GET', '/api/v1/pods')), undefined, 'non-resource rules never match resource requests');
  });

  it('dangling schemas are left out; missing mandatory objects come from their built-in definitions', () => {
    const mine = fs('mine', 5, { subjects: [{ kind: 'User', user: { name: 'u' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }, 'nope');
    const d = digest([mine], []);
    assert.deepEqual(d.references.get('mine'), { levelName: 'nope', dangling: true });
    assert.deepEqual(d.levels.map((l) => l.name).sort(), ['catch-all', 'exempt']);
    assert.deepEqual(d.schemas.map((s) => s.name), ['exempt', 'catch-all']);
    const c = classify(d.schemas, user('u', 'system:authenticated'), ri('GET', '/x'));
    assert.equal(c?.flowSchemaName, 'catch-all');
    assert.equal(c?.flowSchemaUID, '');
  });

  it('digests levels with v1 meanings', () => {
    const d = digest([], levels);
    const by = new Map(d.levels.map((l) => [l.name, l]));
    assert.deepEqual(by.get('exempt'), { name: 'exempt', uid: 'uid-exempt', exempt: true, nominalConcurrencyShares: 0, lendablePercent: 0 });
    assert.deepEqual(by.get('catch-all'), { name: 'catch-all', uid: 'uid-catch-all', exempt: false, nominalConcurrencyShares: 5, lendablePercent: 0 });
    assert.deepEqual(by.get('workload-low')?.queuing, { queues: 128, handSize: 6, queueLengthLimit: 50 });
    assert.equal(by.get('workload-low')?.lendablePercent, 90);
  });
});
