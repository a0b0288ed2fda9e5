import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../../../api/meta/types.js';
import type { AuthorizationAttributes, Authorizer } from '../../../authz/interface.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import { isChangingOwnerReference, newBlockingRefs, OwnerReferencesPermissionEnforcement, type KindMapper } from './plugin.js';

const ctx = {} as RequestContext;
const owner: OwnerReference = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u1' };
const blocking: OwnerReference = { ...owner, blockOwnerDeletion: true };
const rs = (refs?: OwnerReference[]): KubeObject => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'ns', ...(refs ? { ownerReferences: refs } : {}) } });

function attrs(operation: 'CREATE' | 'UPDATE', object: KubeObject, oldObject?: KubeObject, subresource = ''): AdmissionAttributes {
  return {
    operation,
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    subresource,
    kind: 'ReplicaSet',
    namespace: 'ns',
    name: operation === 'CREATE' ? '' : 'web-1',
    object,
    oldObject,
    dryRun: false,
    userInfo: { name: 'jane', groups: [] },
    addAnnotation: () => undefined,
  };
}

const mapKind: KindMapper = (apiVersion, kind) => {
  if (apiVersion === 'apps/v1' && kind === 'Deployment') return [{ group: 'apps', version: 'v1', resource: 'deployments', namespaced: true }];
  if (apiVersion === 'v1' && kind === 'Namespace') return [{ group: '', version: 'v1', resource: 'namespaces', namespaced: false }];
  throw new Error(`no matches for kind "${kind}" in version "${apiVersion}"`);
};

/** An authorizer allowing what allow says, recording every question. */
function authorizer(allow: (a: AuthorizationAttributes) => boolean): { authz: Authorizer; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authz: {
      name: 'test',
      authorize(a) {
        asked.push(`${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`);
        return allow(a) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: 'RBAC: nope' };
      },
    },
  };
}

async function message(p: Promise<void>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('OwnerReferencesPermissionEnforcement', () => {
  it('compares references in order and finds newly blocking ones by uid', () => {
    assert.equal(isChangingOwnerReference(rs(), undefined), false);
    assert.equal(isChangingOwnerReference(rs([owner]), undefined), true);
    assert.equal(isChangingOwnerReference(rs([owner]), rs([{ ...owner }])), false);
    assert.equal(isChangingOwnerReference(rs([blocking]), rs([owner])), true);
    assert.deepEqual(newBlockingRefs(rs([blocking]), rs([owner])), [blocking]);
    assert.deepEqual(newBlockingRefs(rs([blocking]), rs([blocking])), []);
  });

  it('lets a create set references without delete permission, but blockOwnerDeletion needs the owner\'s finalizers', async () => {
    const { authz, asked } = authorizer(() => false);
    const plugin = new OwnerReferencesPermissionEnforcement(() => authz, mapKind);
    assert.equal(await message(plugin.validate(attrs('CREATE', rs([owner])), ctx)), undefined);
    assert.deepEqual(asked, []);
    assert.equal(
      await message(plugin.validate(attrs('CREATE', rs([blocking])), ctx)),
      `replicasets.apps "web-1" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: RBAC: nope, <nil>`,
    );
    assert.deepEqual(asked, ['update apps/deployments/finalizers ns/web']);
  });

  it('an update that changes references needs delete on the object', async () => {
    const { authz, asked } = authorizer((a) => a.verb === 'update');
    const plugin = new OwnerReferencesPermissionEnforcement(() => authz, mapKind);
    assert.equal(
      await message(plugin.validate(attrs('UPDATE', rs([owner]), rs()), ctx)),
      `replicasets.apps "web-1" is forbidden: cannot set an ownerRef on a resource you can't delete: RBAC: nope, <nil>`,
    );
    assert.deepEqual(asked, ['delete apps/replicasets ns/web-1']);
    // Unchanged references ask nothing; pods/status is exempt.
    asked.length = 0;
    assert.equal(await message(plugin.validate(attrs('UPDATE', rs([owner]), rs([owner])), ctx)), undefined);
    assert.deepEqual(asked, []);
  });

  it('cluster-scoped owners are asked without a namespace; unknown kinds are refused', async () => {
    const { authz, asked } = authorizer(() => true);
    const plugin = new OwnerReferencesPermissionEnforcement(() => authz, mapKind);
    const nsOwner: OwnerReference = { apiVersion: 'v1', kind: 'Namespace', name: 'ns', uid: 'n1', blockOwnerDeletion: true };
    assert.equal(await message(plugin.validate(attrs('CREATE', rs([nsOwner])), ctx)), undefined);
    assert.deepEqual(asked, ['update /namespaces/finalizers /ns']);
    assert.equal(
      await message(plugin.validate(attrs('CREATE', rs([{ apiVersion: 'x.io/v1', kind: 'Thing', name: 't', uid: 't1', blockOwnerDeletion: true }])), ctx)),
      'replicasets.apps "web-1" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion x.io/v1 Kind Thing: no matches for kind "Thing" in version "x.io/v1"',
    );
  });

  it('handles creates and updates only, and ignores pods/status', async () => {
    const plugin = new OwnerReferencesPermissionEnforcement(() => authorizer(() => false).authz, mapKind);
    assert.deepEqual(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((o) => plugin.handles(o as 'CREATE')), [true, true, false, false]);
    const podStatus = { ...attrs('UPDATE', rs([blocking]), rs()), group: '', resource: 'pods', subresource: 'status' };
    assert.equal(await message(plugin.validate(podStatus, ctx)), undefined);
  });
});
