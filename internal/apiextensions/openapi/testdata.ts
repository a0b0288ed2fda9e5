/**
 * CRD fixtures for the OpenAPI builder's tests: a namespaced CronTab with status and scale, and a
 * cluster-scoped kind, as v1 objects.
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** A namespaced CronTab CRD (stable.example.com) with a nested, described schema; pass versions/status to vary it. */
export function cronTabCrd(overrides: { versions?: unknown[]; established?: boolean; generation?: number; nonStructural?: boolean; name?: string; group?: string; kind?: string; plural?: string } = {}): KubeObject {
  const group = overrides.group ?? 'stable.example.com';
  const kind = overrides.kind ?? 'CronTab';
  const plural = overrides.plural ?? 'crontabs';
  const conditions = [{ type: 'Established', status: overrides.established === false ? 'False' : 'True' }];
  if (overrides.nonStructural) conditions.push({ type: 'NonStructuralSchema', status: 'True' });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: overrides.name ?? `${plural}.${group}`, uid: 'uid-1', generation: overrides.generation ?? 1 },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      versions: overrides.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'CronTab runs a command on a schedule.',
              properties: {
                spec: {
                  type: 'object',
                  description: 'CronTabSpec is the desired schedule.',
                  required: ['cronSpec', 'note'],
                  properties: {
                    cronSpec: { type: 'string', description: 'The cron schedule, in cron format.', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    replicas: { type: 'integer', format: 'int32', minimum: 1, default: 1 },
                    port: { 'x-kubernetes-int-or-string': true, description: 'A port name or number.' },
                    note: { type: 'string', nullable: true },
                    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
                    raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
                    choice: { type: 'string', anyOf: [{ enum: ['a'] }, { enum: ['b'] }] },
                    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  },
                  'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'too many' }],
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
    status: { conditions },
  };
}
