import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes } from '../../interface.js';
import { compileWebhook } from './accessor.js';
import { rulesMatch, shouldCallHook as shouldCall, type NamespaceLookup, type VersionsLookup } from './matcher.js';
import type { WebhookSpec } from './types.js';
import { VersionedAttributes } from './versioned.js';

const namespaces: Record<string, KubeObject> = {
  prod: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } },
  dev: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev', labels: { env: 'dev' } } },
};
const lookup = async (name: string) => namespaces[name];

const identity = (apiVersion: string, kind: string) => ({ apiVersion, kind, toExternal: (o: KubeObject) => ({ ...o, apiVersion }), toInternal: (o: KubeObject) => ({ ...o, apiVersion: 'v1' }), defaults: () => undefined });
// configmaps are served in v1 and (for this test) v2.
const versionsOf: VersionsLookup = (group, resource) => (group === '' && resource === 'configmaps' ? [{ version: 'v1', versioning: identity('v1', 'ConfigMap') }, { version: 'v2', versioning: identity('v2', 'ConfigMap') }] : []);

/** The dispatchers' test: rules first, then selectors and conditions. */
async function shouldCallHook(hook: ReturnType<typeof compileWebhook>, va: VersionedAttributes, ns: NamespaceLookup): Promise<boolean> {
  const match = rulesMatch(hook, va, versionsOf);
  if (!match) return false;
  return await shouldCall(hook, va, ns, () => va.inVersion(match.versioning, match.version));
}

function attrs(over: Partial<AdmissionAttributes> = {}): VersionedAttributes {
  return new VersionedAttributes({
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'configmaps',
    subresource: '',
    kind: 'ConfigMap',
    namespace: 'prod',
    name: 'cm',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { app: 'web' } }, data: { k: 'v' } } as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { name: 'alice', groups: ['devs'] },
    addAnnotation: () => undefined,
    ...over,
  });
}

function hook(over: Partial<WebhookSpec> = {}) {
  return compileWebhook('cfg', {
    name: 'w.example.com',
    clientConfig: { url: 'https://127.0.0.1/' },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  }, 0);
}

describe('shouldCallHook', () => {
  it('matches rules, and Equivalent also other versions of the resource', async () => {
    assert.equal(await shouldCallHook(hook(), attrs(), lookup), true);
    const v2 = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v2'], resources: ['configmaps'] }];
    assert.equal(await shouldCallHook(hook({ rules: v2 }), attrs(), lookup), true);
    assert.equal(await shouldCallHook(hook({ rules: v2, matchPolicy: 'Exact' }), attrs(), lookup), false);
    const va = attrs();
    const m = rulesMatch(hook({ rules: v2 }), va, versionsOf);
    assert.equal(m?.version, 'v2');
    const v2attrs = va.inVersion(m!.versioning, m!.version);
    const input = v2attrs.reviewInput();
    assert.deepEqual(input.kind, { group: '', version: 'v2', kind: 'ConfigMap' });
    assert.deepEqual(input.resource, { group: '', version: 'v2', resource: 'configmaps' });
    assert.deepEqual(input.requestKind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(input.requestResource, { group: '', version: 'v1', resource: 'configmaps' });
    assert.equal(input.object?.apiVersion, 'v2', 'the object is converted to the matched version');
  });

  it('selects by namespace labels, and by object or old object labels', async () => {
    assert.equal(await shouldCallHook(hook({ namespaceSelector: { matchLabels: { env: 'prod' } } }), attrs(), lookup), true);
    assert.equal(await shouldCallHook(hook({ namespaceSelector: { matchLabels: { env: 'prod' } } }), attrs({ namespace: 'dev' }), lookup), false);
    await assert.rejects(shouldCallHook(hook({ namespaceSelector: { matchLabels: { env: 'prod' } } }), attrs({ namespace: 'gone' }), lookup), { message: 'namespaces "gone" not found' });
    const ns = { group: '', resource: 'namespaces', kind: 'Namespace', namespace: '', name: 'new', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'new', labels: { env: 'prod' } } } as KubeObject };
    const nsRule = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }];
    assert.equal(await shouldCallHook(hook({ rules: nsRule, namespaceSelector: { matchLabels: { env: 'prod' } } }), attrs(ns), lookup), true, "a namespace's own labels");
    assert.equal(await shouldCallHook(hook({ objectSelector: { matchLabels: { app: 'web' } } }), attrs(), lookup), true);
    assert.equal(await shouldCallHook(hook({ objectSelector: { matchLabels: { app: 'db' } } }), attrs(), lookup), false);
    const old = { operation: 'DELETE' as const, object: undefined, oldObject: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { app: 'db' } } } as KubeObject };
    const del = [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    assert.equal(await shouldCallHook(hook({ rules: del, objectSelector: { matchLabels: { app: 'db' } } }), attrs(old), lookup), true);
  });

  it('evaluates matchConditions; errors follow the failure policy', async () => {
    const cond = (expression: string) => [{ name: 'c', expression }];
    assert.equal(await shouldCallHook(hook({ matchConditions: cond("object.data.k == 'v'") }), attrs(), lookup), true);
    assert.equal(await shouldCallHook(hook({ matchConditions: cond("request.userInfo.username == 'bob'") }), attrs(), lookup), false);
    assert.equal(await shouldCallHook(hook({ matchConditions: cond("object.metadata.labels.app == 'web' && request.operation == 'CREATE'") }), attrs(), lookup), true);
    await assert.rejects(shouldCallHook(hook({ matchConditions: cond('object.nope.x == 1') }), attrs(), lookup), (err: Error & { code?: number }) => {
      assert.equal(err.code, 403);
      assert.match(err.message, /^configmaps "cm" is forbidden: expression 'object.nope.x == 1' resulted in error: /);
      return true;
    });
    assert.equal(await shouldCallHook(hook({ failurePolicy: 'Ignore', matchConditions: cond('object.nope.x == 1') }), attrs(), lookup), false);
    // A false condition wins over another's error.
    assert.equal(await shouldCallHook(hook({ matchConditions: [...cond('object.nope.x == 1'), { name: 'd', expression: 'false' }] }), attrs(), lookup), false);
  });

  it('matchConditions ask the server authorizer as the request user (authorizer variable)', async () => {
    const asked: string[] = [];
    // alice may list secrets, nobody else may; answered asynchronously as a webhook authorizer would.
    const authorizer = () => ({
      authorize: async (a: { user: { name: string }; verb: string; resource?: string }) => {
        asked.push(`${a.user.name} ${a.verb} ${a.resource ?? ''}`);
        const allowed = a.user.name === 'alice' && a.verb === 'list' && a.resource === 'secrets';
        return { decision: allowed ? 'Allow' : 'NoOpinion', reason: '' };
      },
    }) as unknown as import('../../../authz/interface.js').Authorizer;
    const h = hook({ matchConditions: [{ name: 'can-list', expression: "authorizer.group('').resource('secrets').namespace('prod').check('list').allowed()" }] });
    const va = attrs();
    const match = rulesMatch(h, va, versionsOf);
    assert.ok(match);
    assert.equal(await shouldCall(h, va, lookup, () => va, authorizer), true);
    const bob = attrs({ userInfo: { name: 'bob', groups: [] } });
    assert.equal(await shouldCall(h, bob, lookup, () => bob, authorizer), false);
    assert.deepEqual(asked, ['alice list secrets', 'bob list secrets']);
  });
});
