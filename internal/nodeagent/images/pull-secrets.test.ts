import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialsFor, registryOf } from './pull-secrets.js';
import { pullPolicyOf } from './puller.js';

describe('image pull credentials and policy', () => {
  it('matches a docker config to the image registry (Docker Hub by its several names)', () => {
    const cfg = { auths: { 'registry.example.com:5000': { auth: Buffer.from('u:p:w').toString('base64') }, 'https://index.docker.io/v1/': { username: 'hub', password: 'pw' } } };
    const secret = new Map([['.dockerconfigjson', Buffer.from(JSON.stringify(cfg))]]);
    assert.deepEqual(credentialsFor('registry.example.com:5000/app:1', [secret]), [{ username: 'u', password: 'p:w', server_address: 'registry.example.com:5000' }]);
    assert.deepEqual(credentialsFor('nginx', [secret]).map((a) => a.username), ['hub']);
    assert.deepEqual(credentialsFor('quay.io/x/y', [secret]), []);
    assert.equal(registryOf('library/nginx:1'), 'docker.io');
    assert.equal(registryOf('localhost/x'), 'localhost');
  });
  it("defaults the pull policy as the API server does: Always for latest or no tag", () => {
    assert.equal(pullPolicyOf({ name: 'a', image: 'busybox' }), 'Always');
    assert.equal(pullPolicyOf({ name: 'a', image: 'busybox:latest' }), 'Always');
    assert.equal(pullPolicyOf({ name: 'a', image: 'registry:5000/busybox:1' }), 'IfNotPresent');
    assert.equal(pullPolicyOf({ name: 'a', image: 'busybox:1', imagePullPolicy: 'Never' }), 'Never');
  });
});
