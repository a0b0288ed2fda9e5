import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import type { InformerHandlers } from '../../controllers/informer.js';
import { createLogger } from '../../observability/logging.js';
import { CrdOpenApiController, fragmentId } from './controller.js';
import { cronTabCrd } from './testdata.js';

/** A hand-driven informer. */
class FakeSource {
  readonly items = new Map<string, KubeObject>();
  private handlers: InformerHandlers[] = [];
  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
  }
  get(key: string): KubeObject | undefined {
    return this.items.get(key);
  }
  put(obj: KubeObject): void {
    const old = this.items.get(obj.metadata.name ?? '');
    this.items.set(obj.metadata.name ?? '', obj);
    for (const h of this.handlers) (old ? h.updated?.(obj, old) : h.added?.(obj));
  }
  remove(name: string): void {
    const old = this.items.get(name);
    this.items.delete(name);
    if (old) for (const h of this.handlers) h.deleted?.(old);
  }
}

function setup() {
  const source = new FakeSource();
  const fragments = new Map<string, unknown>();
  const groupVersions = new Map<string, any>();
  let v2Calls = 0;
  const controller = new CrdOpenApiController(
    source,
    {
      v2: { setFragment: (id, f) => (v2Calls++, f ? fragments.set(id, f) : fragments.delete(id)) },
      v3: { setGroupVersion: (p, d) => (d ? groupVersions.set(p, d) : groupVersions.delete(p)), builtInSchema: () => ({ type: 'object' }) },
    },
    createLogger(0, true),
  );
  controller.start();
  return { source, fragments, groupVersions, controller, v2Calls: () => v2Calls };
}

describe('CRD OpenAPI publisher', () => {
  it('publishes established CRDs only, and takes them out when they go', () => {
    const { source, fragments, groupVersions, controller } = setup();
    source.put(cronTabCrd({ established: false }));
    controller.flush();
    assert.equal(fragments.size, 0);
    assert.equal(groupVersions.size, 0);
    source.put(cronTabCrd());
    controller.flush();
    assert.ok(fragments.has(fragmentId('crontabs.stable.example.com')));
    assert.ok(groupVersions.get('apis/stable.example.com/v1').components.schemas['com.example.stable.v1.CronTab']);
    source.remove('crontabs.stable.example.com');
    controller.flush();
    assert.equal(fragments.size, 0);
    assert.equal(groupVersions.size, 0);
  });

  it('rebuilds on a new generation only, and follows served versions', () => {
    const { source, groupVersions, controller, v2Calls } = setup();
    source.put(cronTabCrd());
    controller.flush();
    const calls = v2Calls();
    source.put(cronTabCrd());
    controller.flush();
    assert.equal(v2Calls(), calls, 'same uid and generation: nothing to publish');
    const v1 = { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } };
    source.put(cronTabCrd({ generation: 2, versions: [v1, { ...v1, name: 'v2', storage: true }] }));
    controller.flush();
    assert.deepEqual([...groupVersions.keys()].sort(), ['apis/stable.example.com/v1', 'apis/stable.example.com/v2']);
    source.put(cronTabCrd({ generation: 3, versions: [{ ...v1, served: false }, { ...v1, name: 'v2', storage: true }] }));
    controller.flush();
    assert.deepEqual([...groupVersions.keys()], ['apis/stable.example.com/v2']);
  });

  it('merges the CRDs of a group version and keeps the others when one goes', () => {
    const { source, groupVersions, controller } = setup();
    source.put(cronTabCrd());
    source.put(cronTabCrd({ kind: 'Widget', plural: 'widgets' }));
    controller.flush();
    const schemas = groupVersions.get('apis/stable.example.com/v1').components.schemas;
    assert.ok(schemas['com.example.stable.v1.CronTab'] && schemas['com.example.stable.v1.Widget']);
    source.remove('crontabs.stable.example.com');
    controller.flush();
    const after = groupVersions.get('apis/stable.example.com/v1').components.schemas;
    assert.ok(!after['com.example.stable.v1.CronTab'] && after['com.example.stable.v1.Widget']);
  });

  it('reads the stored v1beta1 form the informer holds', () => {
    const { source, groupVersions, controller } = setup();
    const stored = cronTabCrd() as any;
    const version = stored.spec.versions[0];
    source.put({
      ...stored,
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      spec: { ...stored.spec, version: 'v1', versions: [{ name: 'v1', served: true, storage: true }], validation: version.schema, subresources: version.subresources },
    });
    controller.flush();
    const spec = groupVersions.get('apis/stable.example.com/v1').components.schemas['com.example.stable.v1.CronTab'].properties.spec;
    assert.equal(spec.description, 'CronTabSpec is the desired schedule.');
    assert.ok(groupVersions.get('apis/stable.example.com/v1').paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale']);
  });

  it('batches events into one pass per turn of the event loop', async () => {
    const { source, fragments } = setup();
    source.put(cronTabCrd());
    assert.equal(fragments.size, 0);
    await new Promise((r) => setImmediate(r));
    assert.equal(fragments.size, 1);
  });
});
