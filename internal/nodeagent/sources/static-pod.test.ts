import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeManifest, InvalidManifestError, staticPodName, type StaticPodOrigin } from './static-pod.js';
import { seenTimestamp } from './config-annotations.js';

const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: app
    image: busybox
`;

describe('static pods', () => {
  const origin: StaticPodOrigin = { kind: 'file', location: '/etc/kubernetes/manifests/web.yaml', nodeName: 'node-a' };

  it('names <name>-<node>, namespace default, nodeName, hash uid and annotation, NoExecute toleration', () => {
    const [pod] = decodeManifest(manifest, origin, false);
    assert.equal(pod!.metadata.name, 'web-node-a');
    assert.equal(pod!.metadata.namespace, 'default');
    assert.match(pod!.metadata.uid ?? '', /^[0-9a-f]{32}$/);
    assert.equal(pod!.metadata.annotations?.['kubernetes.io/config.hash'], pod!.metadata.uid);
    const spec = pod!.spec as Record<string, any>;
    assert.equal(spec.nodeName, 'node-a');
    assert.deepEqual(spec.tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
    // The API server's defaults were applied.
    assert.equal(spec.restartPolicy, 'Always');
    assert.equal(spec.containers[0].terminationMessagePath, '/dev/termination-log');
    assert.deepEqual(pod!.status, { phase: 'Pending' });
  });

  it('the uid is stable for the same content, node and file, and changes with any of them', () => {
    const uid = (data: string, o = origin) => decodeManifest(data, o, false)[0]!.metadata.uid;
    assert.equal(uid(manifest), uid(manifest));
    // JSON and YAML of the same pod are the same pod.
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ image: 'busybox', name: 'app' }] } });
    assert.equal(uid(json), uid(manifest));
    assert.notEqual(uid(manifest.replace('busybox', 'busybox:2')), uid(manifest));
    assert.notEqual(uid(manifest, { ...origin, nodeName: 'other' }), uid(manifest));
    assert.notEqual(uid(manifest, { ...origin, location: '/x.yaml' }), uid(manifest));
    // An http pod's uid depends on the URL only.
    const http = { kind: 'http' as const, location: 'http://h/p', nodeName: 'a' };
    assert.equal(uid(manifest, http), uid(manifest, { ...http, nodeName: 'b' }));
    // An explicit uid is kept.
    assert.equal(uid(manifest.replace('name: web', 'name: web\n  uid: fixed-uid')), 'fixed-uid');
  });

  it('keeps an explicit namespace and does not duplicate the toleration', () => {
    const data = manifest.replace('name: web', 'name: web\n  namespace: kube-system') + '  tolerations:\n  - operator: Exists\n    effect: NoExecute\n';
    const [pod] = decodeManifest(data, origin, false);
    assert.equal(pod!.metadata.namespace, 'kube-system');
    assert.deepEqual((pod!.spec as any).tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
  });

  it('refuses pods without a name and invalid pods with kube validation messages', () => {
    assert.throws(() => decodeManifest('apiVersion: v1\nkind: Pod\nspec: {containers: [{name: a, image: b}]}\n', origin, false), (e: Error) => e instanceof InvalidManifestError && e.message === 'invalid pod: name is needed for the pod');
    assert.throws(() => decodeManifest(manifest.replace('    image: busybox\n', ''), origin, false), { message: "invalid pod: [spec.containers[0].image: Required value]" });
    assert.throws(() => decodeManifest('apiVersion: v1\nkind: Service\nmetadata: {name: s}\n', origin, false), /not a v1 Pod/);
    assert.throws(() => decodeManifest('a: [', origin, false));
    assert.throws(() => decodeManifest('kind: Pod\nmetadata: {name: x}\n', origin, false), { message: `Object 'apiVersion' is missing in '{"kind":"Pod","metadata":{"name":"x"}}'` });
    assert.throws(() => decodeManifest('{"apiVersion": "v1"}', origin, false), /Object 'Kind' is missing/);
  });

  it('lists only where allowed: PodList and v1 List of pods', () => {
    const list = { apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'i' }] } }, { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'i' }] } }] };
    assert.throws(() => decodeManifest(JSON.stringify(list), origin, false), /not a v1 Pod/);
    const http = { kind: 'http' as const, location: 'http://h/p', nodeName: 'n' };
    assert.deepEqual(decodeManifest(JSON.stringify(list), http, true).map((p) => p.metadata.name), ['a-n', 'b-n']);
    const v1List = { apiVersion: 'v1', kind: 'List', items: list.items.map((i) => ({ apiVersion: 'v1', kind: 'Pod', ...i })) };
    assert.equal(decodeManifest(JSON.stringify(v1List), http, true).length, 2);
    assert.deepEqual((decodeManifest(JSON.stringify(v1List), http, true)[0]!.spec as any).tolerations, undefined, 'no toleration for http pods');
  });

  it('name and config.seen formats', () => {
    assert.equal(staticPodName('etcd', 'Master-1'), 'etcd-master-1');
    assert.equal(seenTimestamp(Date.UTC(2024, 0, 2, 3, 4, 5, 120)), '2024-01-02T03:04:05.12Z');
    assert.equal(seenTimestamp(Date.UTC(2024, 0, 2, 3, 4, 5, 0)), '2024-01-02T03:04:05Z');
  });
});
