/**
 * Test support for custom resources: a CRD fixture builder, and waiting for the CRD controllers to
 * establish a CRD.
 */
import assert from 'node:assert/strict';
import type { TestResponse } from './server.js';

/** Anything that sends requests to an API server. */
export interface Requester {
  request(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
}

/** Polls req until check accepts its answer or timeoutMs passes; returns the last answer. */
export async function eventually(req: () => Promise<TestResponse>, check: (r: TestResponse) => boolean, timeoutMs = 10_000): Promise<TestResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await req();
    if (check(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Creates crd and waits until the CRD controllers have Established it. */
export async function createEstablishedCrd(fx: Requester, crd: any): Promise<any> {
  const res = await fx.request('POST', crdPath, { body: crd });
  assert.equal(res.status, 201, res.text);
  return await establish(fx, crd.metadata.name);
}

/** Waits (at most 5 s) for the CRD named name to be Established by the CRD controllers. */
export async function establish(fx: Requester, name: string): Promise<any> {
  const established = (r: TestResponse): boolean =>
    r.status === 200 && (r.json().status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
  const r = await eventually(() => fx.request('GET', `${crdPath}/${name}`), established, 5000);
  assert.ok(established(r), `${name} was not Established within 5 s: ${r.text}`);
  return r.json();
}

/** A CRD for widgets.example.com (namespaced) in the given versions; v1 is stored unless told. */
export function widgetCrd(opts: { versions?: any[]; scope?: string; group?: string; plural?: string; kind?: string } = {}): any {
  const group = opts.group ?? 'example.com';
  const plural = opts.plural ?? 'widgets';
  const kind = opts.kind ?? 'Widget';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: opts.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, shortNames: ['wd'], categories: ['all'] },
      versions: opts.versions ?? [widgetVersion('v1', true)],
    },
  };
}

/** One version of the widget CRD: spec.color/size/replicas/items (list-map on name), status, scale, columns. */
export function widgetVersion(name: string, storage: boolean, extra: Record<string, unknown> = {}): any {
  return {
    name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              color: { type: 'string' },
              size: { type: 'integer' },
              replicas: { type: 'integer' },
              selector: { type: 'string' },
              items: {
                type: 'array',
                'x-kubernetes-list-type': 'map',
                'x-kubernetes-list-map-keys': ['name'],
                items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } },
              },
            },
          },
          status: {
            type: 'object',
            properties: {
              replicas: { type: 'integer' },
              phase: { type: 'string' },
              conditions: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, status: { type: 'string' } } } },
            },
          },
        },
      },
    },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } },
    additionalPrinterColumns: [
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Size', type: 'integer', jsonPath: '.spec.size', description: 'how big' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    selectableFields: [{ jsonPath: '.spec.color' }],
    ...extra,
  };
}
