/**
 * Strategic merge patch over the built-in kinds' patch metadata (api/gen/patch-meta.ts), and the
 * error kinds the API server answers with.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { StrategicPatchError } from './errors.js';
import { patchSchemaFor } from './schema.js';
import { statusErrorForPatch } from './status.js';
import { createThreeWayMergePatch, createTwoWayMergePatch, strategicMergePatch } from './strategic-merge.js';
import type { PatchSchema } from './types.js';

function schemaOf(group: string, version: string, kind: string): PatchSchema {
  const schema = patchSchemaFor({ group, version, kind });
  assert.ok(schema, `no patch schema for ${group}/${version} ${kind}`);
  return schema;
}

const deploymentSchema = schemaOf('apps', 'v1', 'Deployment');
const podSchema = schemaOf('', 'v1', 'Pod');
const serviceSchema = schemaOf('', 'v1', 'Service');

function deployment(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'front' }, finalizers: ['a', 'b'] },
    spec: {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: { metadata: { labels: { app: 'web' } }, spec },
    },
  };
}

const twoContainers = {
  containers: [
    {
      name: 'app',
      image: 'app:1',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
    },
    { name: 'sidecar', image: 'side:1' },
  ],
  volumes: [{ name: 'data', emptyDir: {} }],
  tolerations: [{ key: 'a', operator: 'Exists' }],
};

/** The pod template spec of a patched deployment. */
function podSpecOf(d: unknown): Record<string, any> {
  return (d as { spec: { template: { spec: Record<string, any> } } }).spec.template.spec;
}

function patchError(fn: () => unknown): StrategicPatchError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StrategicPatchError, `expected a StrategicPatchError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the patch to fail');
}

describe('patchSchemaFor', () => {
  test('knows the built-in kinds in every served version and nothing else', () => {
    for (const [group, version, kind] of [
      ['', 'v1', 'Pod'],
      ['', 'v1', 'ConfigMap'],
      ['apps', 'v1', 'Deployment'],
      ['batch', 'v1', 'CronJob'],
      ['autoscaling', 'v1', 'Scale'],
      ['autoscaling', 'v2', 'HorizontalPodAutoscaler'],
      ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'],
      ['apiregistration.k8s.io', 'v1', 'APIService'],
    ] as const) {
      assert.ok(patchSchemaFor({ group, version, kind }), `${group}/${version} ${kind}`);
    }
    assert.equal(patchSchemaFor({ group: 'example.com', version: 'v1', kind: 'Widget' }), undefined);
    assert.equal(patchSchemaFor({ group: 'apps', version: 'v1beta1', kind: 'Deployment' }), undefined);
  });

  test('finds the struct tags of the fields kube merges', () => {
    const podSpec = podSchema.lookupForStruct('spec').schema;
    assert.deepEqual(podSpec.lookupForSlice('containers').meta, { strategies: ['merge'], mergeKey: 'name' });
    assert.deepEqual(podSpec.lookupForSlice('volumes').meta, { strategies: ['merge', 'retainKeys'], mergeKey: 'name' });
    assert.deepEqual(podSpec.lookupForSlice('tolerations').meta, { strategies: [], mergeKey: '' });
    const container = podSpec.lookupForSlice('containers').schema;
    assert.deepEqual(container.lookupForSlice('ports').meta, { strategies: ['merge'], mergeKey: 'containerPort' });
    assert.deepEqual(container.lookupForSlice('volumeMounts').meta, { strategies: ['merge'], mergeKey: 'mountPath' });
    assert.deepEqual(container.lookupForSlice('env').meta, { strategies: ['merge'], mergeKey: 'name' });
    const serviceSpec = serviceSchema.lookupForStruct('spec').schema;
    assert.deepEqual(serviceSpec.lookupForSlice('ports').meta, { strategies: ['merge'], mergeKey: 'port' });
    const deploymentSpec = deploymentSchema.lookupForStruct('spec').schema;
    assert.deepEqual(deploymentSpec.lookupForStruct('strategy').meta, { strategies: ['retainKeys'], mergeKey: '' });
    const meta = podSchema.lookupForStruct('metadata').schema;
    assert.deepEqual(meta.lookupForSlice('finalizers').meta, { strategies: ['merge'], mergeKey: '' });
    assert.deepEqual(meta.lookupForSlice('ownerReferences').meta, { strategies: ['merge'], mergeKey: 'uid' });
    const pdbSpec = schemaOf('policy', 'v1', 'PodDisruptionBudget').lookupForStruct('spec').schema;
    assert.deepEqual(pdbSpec.lookupForStruct('selector').meta, { strategies: ['replace'], mergeKey: '' });
  });

  test('fails lookups as PatchMetaFromStruct does', () => {
    const podSpec = podSchema.lookupForStruct('spec').schema;
    assert.equal(patchError(() => podSpec.lookupForStruct('bogus')).message, 'unable to find api field in struct PodSpec for the json field "bogus"');
    // encoding/json matches field names case-insensitively when there is no exact match.
    assert.deepEqual(podSpec.lookupForSlice('Containers').meta, { strategies: ['merge'], mergeKey: 'name' });
    const labels = podSchema.lookupForStruct('metadata').schema.lookupForStruct('labels').schema;
    assert.equal(labels.name, 'map');
    assert.equal(
      patchError(() => labels.lookupForStruct('x').schema.lookupForStruct('y')).message,
      'merging an object in json but data type is not map or struct, instead is: string',
    );
    assert.equal(patchError(() => podSchema.lookupForSlice('spec')).message, 'expected slice or array type, but got: struct');
    const crd = schemaOf('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition');
    const props = crd.lookupForStruct('spec').schema.lookupForSlice('versions').schema.lookupForStruct('schema').schema.lookupForStruct('openAPIV3Schema').schema;
    // items is a *JSONSchemaPropsOrArray, whose Go fields carry no json tags.
    assert.equal(
      patchError(() => props.lookupForStruct('items').schema.lookupForStruct('properties')).message,
      'unable to find api field in struct JSONSchemaPropsOrArray for the json field "properties"',
    );
    assert.equal(props.lookupForSlice('items').schema.name, 'struct');
  });
});

describe('strategic merge patch of built-in kinds', () => {
  test('merges containers by name, and their ports, env and volume mounts by their keys', () => {
    const original = deployment(twoContainers);
    const patched = strategicMergePatch(
      original,
      {
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'app:2',
                  ports: [{ containerPort: 8080, name: 'alt' }],
                  env: [{ name: 'B', value: 'two' }, { name: 'A', $patch: 'delete' }],
                  volumeMounts: [{ mountPath: '/data', readOnly: true }],
                },
              ],
            },
          },
        },
      },
      deploymentSchema,
    );
    const spec = podSpecOf(patched);
    assert.equal(spec.containers.length, 2);
    assert.deepEqual(spec.containers[1], { name: 'sidecar', image: 'side:1' });
    const app = spec.containers[0];
    assert.equal(app.image, 'app:2');
    assert.deepEqual(app.ports, [{ containerPort: 8080, name: 'alt' }, { containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(app.env, [{ name: 'B', value: 'two' }]);
    assert.deepEqual(app.volumeMounts, [{ name: 'data', mountPath: '/data', readOnly: true }]);
    assert.deepEqual(podSpecOf(original).containers[0].image, 'app:1', 'the input is not mutated');
  });

  test('replaces lists without a patch strategy (tolerations) and merges label maps with null deletion', () => {
    const patched = strategicMergePatch(
      deployment(twoContainers),
      { metadata: { labels: { tier: null, env: 'prod' } }, spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } } } },
      deploymentSchema,
    ) as { metadata: { labels: Record<string, string> } };
    assert.deepEqual(patched.metadata.labels, { app: 'web', env: 'prod' });
    assert.deepEqual(podSpecOf(patched).tolerations, [{ key: 'b', operator: 'Exists' }]);
  });

  test('treats finalizers as an ordered set', () => {
    const patched = strategicMergePatch(
      deployment(twoContainers),
      { metadata: { finalizers: ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } },
      deploymentSchema,
    ) as { metadata: { finalizers: string[] } };
    assert.deepEqual(patched.metadata.finalizers, ['c', 'a']);
  });

  test('retainKeys clears the other members of a union (Deployment strategy, Pod volumes)', () => {
    const original = deployment(twoContainers);
    const modified = structuredClone(original) as ReturnType<typeof deployment>;
    (modified.spec as any).strategy = { type: 'Recreate' };
    podSpecOf(modified).volumes = [{ name: 'data', configMap: { name: 'cfg' } }];
    const patch = createTwoWayMergePatch(original, modified, deploymentSchema) as any;
    assert.deepEqual(patch.spec.strategy, { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' });
    assert.deepEqual(patch.spec.template.spec.volumes, [{ $retainKeys: ['configMap', 'name'], configMap: { name: 'cfg' }, emptyDir: null, name: 'data' }]);
    const patched = strategicMergePatch(original, patch, deploymentSchema);
    assert.deepEqual(patched, modified);
    // Without setting the dropped member to null, $retainKeys alone removes it.
    const byDirective = strategicMergePatch(original, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, deploymentSchema) as any;
    assert.deepEqual(byDirective.spec.strategy, { type: 'Recreate' });
  });

  test('merges Service ports by port and replaces a PodDisruptionBudget selector', () => {
    const service = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443, targetPort: 8443 }], selector: { app: 'web' } } };
    const patched = strategicMergePatch(service, { spec: { ports: [{ port: 443, name: 'https' }] } }, serviceSchema) as any;
    // Without $setElementOrder, elements the live list already has keep its order.
    assert.deepEqual(patched.spec.ports, [
      { port: 80, targetPort: 8080 },
      { port: 443, targetPort: 8443, name: 'https' },
    ]);
    const pdb = { spec: { selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] } } };
    const pdbSchema = schemaOf('policy', 'v1', 'PodDisruptionBudget');
    const replaced = strategicMergePatch(pdb, { spec: { selector: { matchLabels: { app: 'api' } } } }, pdbSchema) as any;
    assert.deepEqual(replaced.spec.selector, { matchLabels: { app: 'api' } });
  });

  test('keeps int64 values exact when they arrive as bigint', () => {
    const patched = strategicMergePatch({ spec: { activeDeadlineSeconds: 9223372036854775807n } }, { spec: { priority: 1 } }, podSchema);
    assert.deepEqual(patched, { spec: { activeDeadlineSeconds: 9223372036854775807n, priority: 1 } });
  });

  test('ownerReferences merge by uid', () => {
    const original = { metadata: { ownerReferences: [{ uid: 'u1', name: 'a' }, { uid: 'u2', name: 'b' }] } };
    const patched = strategicMergePatch(original, { metadata: { ownerReferences: [{ uid: 'u2', $patch: 'delete' }, { uid: 'u3', name: 'c' }] } }, podSchema) as any;
    // New elements the live list cannot place go first, as in kube.
    assert.deepEqual(patched.metadata.ownerReferences, [{ uid: 'u3', name: 'c' }, { uid: 'u1', name: 'a' }]);
  });
});

describe('errors and how they are answered', () => {
  const pod = { metadata: { finalizers: [] as string[] }, spec: { containers: [{ name: 'a', image: 'x' }] } };

  test('malformed directives are BadRequest with kube mergepatch texts', () => {
    const cases: [unknown, string][] = [
      [{ spec: { containers: [{ image: 'y' }] } }, 'map: map[image:y] does not contain declared merge key: name'],
      [{ spec: { $patch: 'nope' } }, 'unknown patch type: nope in map: map[$patch:nope]'],
      [{ spec: { $retainKeys: 'containers' } }, 'invalid patch format of retainKeys'],
      [{ spec: { $retainKeys: ['hostname'], containers: [] } }, 'invalid patch format of retainKeys'],
      [{ metadata: { $deleteFromPrimitiveList: ['a'] } }, 'invalid patch format of primitive list'],
      [{ spec: { $setElementOrder: [] } }, 'invalid patch format of setElementOrder list'],
      [{ spec: { containers: [{ name: 'a', $patch: 'merge' }] } }, 'merging lists cannot yet be specified in the patch'],
      [
        { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b' }] } },
        "The order in patch list:\n[map[name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n",
      ],
      [{ spec: { containers: [{ name: 'a', image: 'y' }, 'b'] } }, 'list element types are not identical: [[map[image:x name:a]] [map[image:y name:a] b]]'],
    ];
    for (const [patch, message] of cases) {
      const err = patchError(() => strategicMergePatch(pod, patch, podSchema));
      assert.equal(err.message, message);
      assert.equal(err.kind, 'BadRequest');
      assert.equal(statusErrorForPatch(err).status.code, 400);
    }
  });

  test('lists of lists are Invalid (422)', () => {
    const err = patchError(() => strategicMergePatch(pod, { metadata: { finalizers: [['x']] } }, podSchema));
    assert.equal(err.message, 'lists of lists are not supported');
    assert.equal(err.kind, 'Invalid');
    const status = statusErrorForPatch(err).status;
    assert.equal(status.code, 422);
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.message, 'the server rejected our request due to an error in our request');
    assert.equal(status.details?.causes, undefined, 'kube builds this 422 without causes');
  });

  test('a document that is not an object is an invalid JSON document', () => {
    const err = patchError(() => strategicMergePatch(pod, ['not', 'an', 'object'], podSchema));
    assert.equal(err.message, 'invalid JSON document');
    assert.equal(err.kind, 'BadRequest');
  });

  test('a three-way conflict is a Conflict, and overwrite creates the patch', () => {
    const original = { metadata: { labels: { a: '1' } } };
    const modified = { metadata: { labels: { a: '2' } } };
    const current = { metadata: { labels: { a: '3' } } };
    const err = patchError(() => createThreeWayMergePatch(original, modified, current, podSchema, false));
    assert.equal(err.kind, 'Conflict');
    assert.match(err.message, /^patch:\n[\s\S]*conflicts with changes made from original to current:\n/);
    assert.deepEqual(createThreeWayMergePatch(original, modified, current, podSchema, true), { metadata: { labels: { a: '2' } } });
  });

  test('unknown fields with different values cannot be diffed; equal ones can', () => {
    assert.deepEqual(createTwoWayMergePatch({ spec: { bogus: { a: 1 } } }, { spec: { bogus: { a: 1 } } }, podSchema), {});
    const err = patchError(() => createTwoWayMergePatch({ spec: { bogus: { a: 1 } } }, { spec: { bogus: { a: 2 } } }, podSchema));
    assert.equal(err.message, 'unable to find api field in struct PodSpec for the json field "bogus"');
  });
});

describe('two-way patches of Deployments round-trip', () => {
  // A fixed pseudo-random sequence, so a failure names a reproducible case.
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const some = <T>(items: readonly T[]): T[] => items.filter(() => next(2) === 1);

  function randomDeployment(): Record<string, unknown> {
    const containers = some(['a', 'b', 'c', 'd', 'e']).map((name) => ({
      name,
      image: ['x:1', 'x:2', 'y:1'][next(3)],
      ...(next(2) ? { env: some(['A', 'B', 'C', 'D']).map((n) => ({ name: n, value: String(next(3)) })) } : {}),
      ...(next(2) ? { ports: some([80, 443, 8080]).map((p) => ({ containerPort: p, protocol: 'TCP' })) } : {}),
    }));
    if (containers.length === 0) containers.push({ name: 'z', image: 'z' });
    for (let i = containers.length - 1; i > 0; i--) {
      const j = next(i + 1);
      [containers[i], containers[j]] = [containers[j] as (typeof containers)[number], containers[i] as (typeof containers)[number]];
    }
    return {
      metadata: { name: 'd', labels: Object.fromEntries(some(['k1', 'k2', 'k3']).map((k) => [k, `v${next(2)}`])), finalizers: some(['f1', 'f2', 'f3', 'f4']) },
      spec: {
        replicas: next(3),
        strategy: next(2) ? { type: 'Recreate' } : { type: 'RollingUpdate', rollingUpdate: { maxSurge: next(3) } },
        template: { spec: { containers, volumes: some(['v1', 'v2']).map((name) => (next(2) ? { name, emptyDir: {} } : { name, configMap: { name: 'cm' } })) } },
      },
    };
  }

  test('applying CreateTwoWayMergePatch(original, modified) to original gives modified, order included', () => {
    for (let i = 0; i < 500; i++) {
      const original = randomDeployment();
      const modified = randomDeployment();
      const patch = createTwoWayMergePatch(original, modified, deploymentSchema);
      assert.deepEqual(strategicMergePatch(original, patch, deploymentSchema), modified, `case ${i}: ${JSON.stringify({ original, modified, patch })}`);
    }
  });
});
