import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../client/api-client.js';
import type { ConfigObjects } from '../pods/config-objects.js';
import type { Pod } from '../pods/types.js';
import { checkHostPath } from './host-path.js';
import { VolumeManager } from './manager.js';
import { TokenManager } from './service-account-token.js';

const objects: ConfigObjects = {
  configMap: async (_ns, name) => (name === 'cm' ? new Map([['k', Buffer.from('v')]]) : undefined),
  secret: async () => undefined,
};

function fakeClient(lifetimeMs: number, requests: unknown[]): ApiClient {
  return {
    create: async (path: string, body: unknown) => {
      requests.push({ path, body });
      return { status: { token: `t${requests.length}`, expirationTimestamp: new Date(Date.now() + lifetimeMs).toISOString() } };
    },
  } as unknown as ApiClient;
}

const pod = (volumes: Pod['spec']['volumes']): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'uid-1' }, spec: { containers: [], serviceAccountName: 'sa', volumes } });
const rt = { podIPs: [], hostIPs: [] };

describe('pod volumes', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'capstan-volumes-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("fails a missing ConfigMap or key with kubelet's FailedMount messages, unless optional", async () => {
    const vm = new VolumeManager(root, objects, fakeClient(3600_000, []));
    await assert.rejects(vm.setUp(pod([{ name: 'v', configMap: { name: 'nope' } }]), rt), { message: 'MountVolume.SetUp failed for volume "v" : configmap "nope" not found' });
    await assert.rejects(vm.setUp(pod([{ name: 'v', configMap: { name: 'cm', items: [{ key: 'x', path: 'x' }] } }]), rt), /configmap references non-existent config key: x/);
    await assert.rejects(vm.setUp(pod([{ name: 's', secret: { secretName: 'gone' } }]), rt), { message: 'MountVolume.SetUp failed for volume "s" : secret "gone" not found' });
    const paths = await vm.setUp(pod([{ name: 'v', configMap: { name: 'nope', optional: true } }, { name: 'e', emptyDir: {} }]), rt);
    assert.equal(paths.get('v'), join(root, 'pods', 'uid-1', 'volumes', 'kubernetes.io~configmap', 'v'));
    assert.equal((await stat(paths.get('e')!)).mode & 0o777, 0o777);
    await vm.tearDown('uid-1');
    await assert.rejects(stat(join(root, 'pods', 'uid-1')));
  });

  it('requests a bound token with the audience and requests it again after 80% of its life', async () => {
    const requests: any[] = [];
    const tokens = new TokenManager(fakeClient(1000, requests));
    const p = pod([]);
    assert.equal(await tokens.token(p, 'vault', 600), 't1');
    assert.equal(await tokens.token(p, 'vault', 600), 't1');
    assert.deepEqual(requests[0], {
      path: '/api/v1/namespaces/ns/serviceaccounts/sa/token',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['vault'], expirationSeconds: 600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'uid-1' } } },
    });
    await new Promise((r) => setTimeout(r, 850));
    assert.equal(await tokens.token(p, 'vault', 600), 't2');
  });

  it('checks hostPath types', async () => {
    const dir = join(root, 'made');
    await checkHostPath(dir, 'DirectoryOrCreate');
    assert.ok((await stat(dir)).isDirectory());
    await checkHostPath(join(dir, 'f'), 'FileOrCreate');
    assert.equal(await readFile(join(dir, 'f'), 'utf8'), '');
    await writeFile(join(dir, 'g'), 'x');
    await checkHostPath(join(dir, 'g'), 'File');
    await assert.rejects(checkHostPath(join(dir, 'g'), 'Directory'), { message: `hostPath type check failed: ${join(dir, 'g')} is not a directory` });
    await assert.rejects(checkHostPath(dir, 'File'), { message: `hostPath type check failed: ${dir} is not a file` });
    await assert.rejects(checkHostPath(join(dir, 'missing', 'f'), 'FileOrCreate'));
    await assert.rejects(checkHostPath(dir, 'Socket'), /is not a socket file/);
  });
});
