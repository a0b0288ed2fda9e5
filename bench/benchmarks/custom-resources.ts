/**
 * custom-resources: what serving a custom resource costs on the write path. Creates/s (64 in
 * flight) of a custom resource whose CRD has a 200-field structural schema (strings with patterns
 * and lengths, bounded integers, enums, nested objects, a map list) and 5 CEL rules, against
 * ConfigMap creates of the same server carrying the same 200 values as data, in alternating
 * rounds (bench/ab-rounds.ts). The ratio is the price of pruning, defaulting, schema validation,
 * CEL and JSON storage over a built-in kind with no schema work. Target: >= 0.5x.
 */
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { callOk, ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import { collectionPath } from '../objects.js';
import type { BenchResult } from '../results.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-crd';
const group = 'bench.capstan.dev';
const groups = 20;
const fieldsPerGroup = 10;

/** The 10 fields of one nested group: every kind of check a large operator schema uses. */
function groupSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
      image: { type: 'string', minLength: 1, maxLength: 256 },
      replicas: { type: 'integer', format: 'int32', minimum: 0, maximum: 1000 },
      maxReplicas: { type: 'integer', format: 'int32', minimum: 1, maximum: 1000 },
      enabled: { type: 'boolean' },
      policy: { type: 'string', enum: ['Always', 'IfNotPresent', 'Never'] },
      timeout: { type: 'string', format: 'duration' },
      weight: { type: 'number', minimum: 0, maximum: 100 },
      mode: { type: 'string', default: 'auto' },
      port: { type: 'integer', minimum: 1, maximum: 65535 },
    },
  };
}

/** The CRD: spec.g00 ... spec.g19, 10 fields each (200 fields), and 5 CEL rules. */
export function benchCrd(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let g = 0; g < groups; g++) properties[`g${String(g).padStart(2, '0')}`] = groupSchema();
  properties.ports = {
    type: 'array',
    maxItems: 16,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: { type: 'object', required: ['name', 'port'], properties: { name: { type: 'string', maxLength: 15 }, port: { type: 'integer', minimum: 1, maximum: 65535 } } },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties,
                  'x-kubernetes-validations': [
                    { rule: 'self.g00.replicas <= self.g00.maxReplicas', message: 'replicas must not exceed maxReplicas' },
                    { rule: "self.g01.name.startsWith('web')", message: 'g01 must be a web tier' },
                    { rule: 'self.g02.port != self.g03.port', message: 'g02 and g03 need distinct ports' },
                    { rule: 'self.ports.all(p, p.port > 0)', message: 'ports must be positive' },
                    { rule: '!has(self.g04.weight) || self.g04.weight <= 50.0', message: 'g04 weight at most 50' },
                  ],
                },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}

/** One object's 200 values, as the CR's spec groups and flattened as ConfigMap data. */
function values(): Record<string, Record<string, unknown>> {
  const spec: Record<string, Record<string, unknown>> = {};
  for (let g = 0; g < groups; g++) {
    spec[`g${String(g).padStart(2, '0')}`] = {
      name: g === 1 ? 'web-frontend' : `tier-${g}`,
      image: `registry.example.com/team/app-${g}:1.2.${g}`,
      replicas: 3,
      maxReplicas: 10,
      enabled: g % 2 === 0,
      policy: 'IfNotPresent',
      timeout: '30s',
      weight: 25.5,
      mode: 'auto',
      port: 8000 + g,
    };
  }
  return spec;
}

/** Runs the custom resource benchmark. */
export async function customResourcesBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const spec = values();
  const crBody = JSON.stringify({
    apiVersion: `${group}/v1`,
    kind: 'Widget',
    metadata: { generateName: 'w-', labels: { app: 'bench' } },
    spec: { ...spec, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] },
  });
  const data: Record<string, string> = {};
  for (const [g, fields] of Object.entries(spec)) for (const [k, v] of Object.entries(fields)) data[`${g}.${k}`] = String(v);
  data['ports.http'] = '80';
  data['ports.https'] = '443';
  const cmBody = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cm-', labels: { app: 'bench' } }, data });
  const workloads: AbWorkload[] = [
    {
      name: 'creates',
      load: (s, side) =>
        side === 'a'
          ? throughput({ port: s.port, ca: s.ca, path: `/apis/${group}/v1/namespaces/${namespace}/widgets`, method: 'POST', body: crBody, connections, warmupSeconds: 0, seconds })
          : throughput({ port: s.port, ca: s.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST', body: cmBody, connections, warmupSeconds: 0, seconds }),
    },
  ];
  let measured: AbMeasurements | undefined;
  await withServer(await ctx.apiServer(), async (server) => {
    const client = newClient(server.port, server.ca, 1);
    try {
      await ensureNamespace(client, namespace);
      const crd = benchCrd();
      if ((await client.call('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`)).status === 404) {
        await callOk(client, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      }
      // Served once the CRD is established: wait for its collection to answer.
      const deadline = Date.now() + 10_000;
      while ((await client.call('GET', `/apis/${group}/v1/namespaces/${namespace}/widgets?limit=1`)).status !== 200) {
        if (Date.now() > deadline) throw new Error('the benchmark CRD was not served within 10 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      client.close();
    }
    ctx.log(`custom-resources: ${rounds} rounds of ${seconds}s creates, a 200-field CR with 5 CEL rules then ConfigMaps with the same 200 values, ${connections} connections`);
    measured = await server.profile('custom-resources', () => runAbRounds(server, server, workloads, rounds));
  });
  const m = measured as AbMeasurements;
  return [
    abResult(m, 0, {
      name: 'custom resource creates (200 fields, 5 CEL rules)',
      aLabel: 'custom resource',
      bLabel: 'ConfigMap',
      threshold: 0.5,
      extraFigures: { connections, seconds, fields: groups * fieldsPerGroup, celRules: 5 },
    }),
  ];
}
