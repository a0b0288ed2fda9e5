import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { ServiceAccountAdmission } from './plugin.js';

const account = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns' }, ...extra });

function plugin(accounts: KubeObject[], live: KubeObject[] = [], sleeps: number[] = []): ServiceAccountAdmission {
  return new ServiceAccountAdmission(
    new FakeInformer(accounts).asInformer(),
    async (ns, name) => live.find((a) => a.metadata.namespace === ns && a.metadata.name === name),
    async (ms) => void sleeps.push(ms),
    (base) => `${base}abcde`,
  );
}

const mountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('ServiceAccount admission', () => {
  it('sets the default account, mounts the token volume in every container and copies pull secrets', async () => {
    const p = plugin([account('default', { imagePullSecrets: [{ name: 'regcred' }] })]);
    const obj = pod('p', {
      initContainers: [{ name: 'init', image: 'x' }],
      containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x', volumeMounts: [{ name: 'mine', mountPath }] }],
      volumes: [{ name: 'mine', emptyDir: {} }],
    });
    await p.admit(attrsFor('CREATE', obj), testContext);
    const spec = (obj as Pod).spec!;
    assert.equal(spec.serviceAccountName, 'default');
    assert.equal(spec.serviceAccount, 'default');
    assert.deepEqual(spec.imagePullSecrets, [{ name: 'regcred' }]);
    const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath };
    assert.deepEqual(spec.initContainers?.[0]?.volumeMounts, [mount]);
    assert.deepEqual(spec.containers?.[0]?.volumeMounts, [mount]);
    assert.deepEqual(spec.containers?.[1]?.volumeMounts, [{ name: 'mine', mountPath }], 'a mount at the path already is kept');
    assert.deepEqual(spec.volumes?.[1], {
      name: 'kube-api-access-abcde',
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    });
  });

  it('honours automountServiceAccountToken of the pod over the account', async () => {
    const off = pod('p', { containers: [{ name: 'a', image: 'x' }] });
    await plugin([account('default', { automountServiceAccountToken: false })]).admit(attrsFor('CREATE', off), testContext);
    assert.equal((off as Pod).spec?.volumes, undefined);
    const on = pod('p', { automountServiceAccountToken: true, containers: [{ name: 'a', image: 'x' }] });
    await plugin([account('default', { automountServiceAccountToken: false })]).admit(attrsFor('CREATE', on), testContext);
    assert.equal((on as Pod).spec?.volumes?.length, 1);
  });

  it('refuses an account that does not exist, after retrying the default one', async () => {
    const sleeps: number[] = [];
    const p = plugin([], [], sleeps);
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { containers: [{ name: 'a', image: 'x' }] })), testContext), {
      message: 'pods "p" is forbidden: error looking up service account ns/default: serviceaccount "default" not found',
    });
    assert.equal(sleeps.length, 9);
    await assert.rejects(p.admit(attrsFor('CREATE', pod('', { serviceAccountName: 'robot', containers: [] }, { generateName: 'web-' })), testContext), {
      message: 'pods "web-" is forbidden: error looking up service account ns/robot: serviceaccount "robot" not found',
    });
  });

  it('finds an account the cache does not have yet in storage', async () => {
    const p = plugin([], [account('robot')]);
    const obj = pod('p', { serviceAccountName: 'robot', containers: [{ name: 'a', image: 'x' }] });
    await p.admit(attrsFor('CREATE', obj), testContext);
    assert.equal((obj as Pod).spec?.volumes?.length, 1);
  });

  it('keeps mirror pods from referencing accounts and secrets, and leaves their spec alone', async () => {
    const p = plugin([account('default')]);
    const mirror = (spec: Record<string, unknown>) => pod('m', spec, { annotations: { 'kubernetes.io/config.mirror': 'x' } });
    const clean = mirror({ containers: [{ name: 'a', image: 'x' }] });
    await p.admit(attrsFor('CREATE', clean), testContext);
    assert.equal((clean as Pod).spec?.serviceAccountName, undefined);
    await assert.rejects(p.admit(attrsFor('CREATE', mirror({ serviceAccountName: 'x', containers: [] })), testContext), /a mirror pod may not reference service accounts/);
    await assert.rejects(p.admit(attrsFor('CREATE', mirror({ volumes: [{ name: 's', secret: { secretName: 's' } }], containers: [] })), testContext), /a mirror pod may not reference secrets/);
    await assert.rejects(
      p.admit(attrsFor('CREATE', mirror({ volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }], containers: [] })), testContext),
      /a mirror pod may not use ServiceAccountToken volume projections/,
    );
  });

  it('enforces mountable secrets when the account asks for it', async () => {
    const p = plugin([account('default', { metadata: { name: 'default', namespace: 'ns', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] })]);
    await p.admit(attrsFor('CREATE', pod('p', { volumes: [{ name: 'v', secret: { secretName: 'ok' } }], containers: [] })), testContext);
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { volumes: [{ name: 'v', secret: { secretName: 'other' } }], containers: [] })), testContext), {
      message: 'pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account default does not reference that secret',
    });
    const env = pod('p', { containers: [{ name: 'c', image: 'x', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] }] });
    await assert.rejects(p.admit(attrsFor('CREATE', env), testContext), /container c with envVar E referencing secret.secretName="other" is not allowed/);
  });
});
