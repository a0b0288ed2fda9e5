import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes } from '../../interface.js';
import { requestContext } from '../../../registry/core/shared/testing.js';
import { denyServiceExternalIPs } from './plugin.js';

const svc = (externalIPs?: string[]): KubeObject => ({ metadata: { name: 'web', namespace: 'ns' }, spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });
const attrs = (operation: 'CREATE' | 'UPDATE', object: KubeObject, oldObject?: KubeObject, resource = 'services'): AdmissionAttributes => ({
  operation,
  group: '',
  version: 'v1',
  resource,
  subresource: '',
  kind: 'Service',
  namespace: 'ns',
  name: 'web',
  object,
  oldObject,
  dryRun: false,
  userInfo: { name: 'u', groups: [] },
  addAnnotation: () => undefined,
});
const ctx = requestContext('POST', '/api/v1/namespaces/ns/services');

describe('DenyServiceExternalIPs', () => {
  const plugin = denyServiceExternalIPs();
  it('refuses new external IPs with kube\'s 403', async () => {
    await assert.rejects(plugin.validate?.(attrs('CREATE', svc(['192.0.2.1'])), ctx) as Promise<void>, (err: any) => {
      assert.equal(err.status.code, 403);
      assert.equal(err.status.message, 'services "web" is forbidden: Use of external IPs is denied by admission control');
      return true;
    });
    await assert.rejects(plugin.validate?.(attrs('UPDATE', svc(['192.0.2.1', '192.0.2.2']), svc(['192.0.2.1'])), ctx) as Promise<void>);
  });
  it('allows none, the same ones, fewer, and other resources', async () => {
    await plugin.validate?.(attrs('CREATE', svc()), ctx);
    await plugin.validate?.(attrs('UPDATE', svc(['192.0.2.1']), svc(['192.0.2.1', '192.0.2.2'])), ctx);
    await plugin.validate?.(attrs('UPDATE', svc([]), svc(['192.0.2.1'])), ctx);
    await plugin.validate?.(attrs('CREATE', svc(['192.0.2.1']), undefined, 'pods'), ctx);
    assert.equal(plugin.handles('DELETE'), false);
  });
});
