import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultDeployment } from './defaults.js';

describe('defaultDeployment (SetObjectDefaults_Deployment)', () => {
  it('fills a minimal deployment as kube-apiserver returns it', () => {
    const obj: KubeObject = {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } },
      },
    };
    defaultDeployment(obj);
    assert.deepEqual(obj.spec, {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              imagePullPolicy: 'IfNotPresent',
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              resources: {},
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          schedulerName: 'default-scheduler',
        },
      },
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  it('keeps what the client set; Recreate gets no rollingUpdate; zero replicas stay zero', () => {
    const obj: KubeObject = {
      metadata: { name: 'web' },
      spec: { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, progressDeadlineSeconds: 30, template: { spec: { containers: [] } } },
    };
    defaultDeployment(obj);
    const spec = obj.spec as Record<string, unknown>;
    assert.equal(spec.replicas, 0);
    assert.deepEqual(spec.strategy, { type: 'Recreate' });
    assert.equal(spec.revisionHistoryLimit, 0);
    assert.equal(spec.progressDeadlineSeconds, 30);
    const partial: KubeObject = { metadata: { name: 'p' }, spec: { strategy: { rollingUpdate: { maxSurge: 1 } } } };
    defaultDeployment(partial);
    assert.deepEqual((partial.spec as Record<string, unknown>).strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
  });
});
