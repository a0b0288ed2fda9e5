/**
 * The meta.k8s.io views of resources over HTTP: PartialObjectMetadata for one object and in
 * watches, PartialObjectMetadataList for lists (JSON, YAML and Protobuf), Tables in YAML, and the
 * 406s for shapes an endpoint cannot answer (checked before anything is written).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { decodeObject } from '../../proto/codec.js';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const fx = useServer();
const ns = 'default';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const pom = (v = 'v1') => `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=${v}`;
const poml = (v = 'v1', enc = 'json') => `application/${enc};as=PartialObjectMetadataList;g=meta.k8s.io;v=${v}`;
const cm = (name: string) => ({ metadata: { name, labels: { app: 'rep' }, annotations: { note: 'n' } }, data: { secret: 'value' } });

describe('PartialObjectMetadata and PartialObjectMetadataList', () => {
  it('GET returns only the metadata, in v1 and v1beta1, with a plain Content-Type', async () => {
    assert.equal((await fx.request('POST', cms, { body: cm('p1') })).status, 201);
    for (const v of ['v1', 'v1beta1']) {
      const res = await fx.request('GET', `${cms}/p1`, { headers: { accept: pom(v) } });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/json');
      const obj = res.json();
      assert.equal(obj.kind, 'PartialObjectMetadata');
      assert.equal(obj.apiVersion, `meta.k8s.io/${v}`);
      assert.equal(obj.metadata.name, 'p1');
      assert.deepEqual(obj.metadata.labels, { app: 'rep' });
      assert.match(obj.metadata.uid, /^[0-9a-f-]{36}$/);
      assert.equal(obj.data, undefined);
    }
  });

  it('LIST returns a PartialObjectMetadataList; an empty one has items null', async () => {
    await fx.request('POST', cms, { body: cm('p2') });
    const res = await fx.request('GET', `${cms}?labelSelector=app%3Drep`, { headers: { accept: `${poml()}, application/json` } });
    assert.equal(res.status, 200);
    const list = res.json();
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.equal(list.apiVersion, 'meta.k8s.io/v1');
    assert.match(list.metadata.resourceVersion, /^\d+$/);
    assert.deepEqual(list.items.map((i: any) => [i.kind, i.metadata.name]).sort(), [['PartialObjectMetadata', 'p1'], ['PartialObjectMetadata', 'p2']]);
    assert.ok(list.items.every((i: any) => i.data === undefined));
    const empty = (await fx.request('GET', `${cms}?labelSelector=app%3Dnone`, { headers: { accept: poml('v1beta1') } })).json();
    assert.equal(empty.apiVersion, 'meta.k8s.io/v1beta1');
    assert.equal(empty.items, null);
  });

  it('paging carries the continue token', async () => {
    const page = (await fx.request('GET', `${cms}?labelSelector=app%3Drep&limit=1`, { headers: { accept: poml() } })).json();
    assert.equal(page.items.length, 1);
    assert.ok(page.metadata.continue);
    const next = (await fx.request('GET', `${cms}?labelSelector=app%3Drep&limit=1&continue=${encodeURIComponent(page.metadata.continue)}`, { headers: { accept: poml() } })).json();
    assert.equal(next.items.length, 1);
    assert.notEqual(next.items[0].metadata.name, page.items[0].metadata.name);
  });

  it('YAML and Protobuf encodings', async () => {
    const yaml = await fx.request('GET', `${cms}/p1`, { headers: { accept: 'application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
    assert.equal(yaml.headers['content-type'], 'application/yaml');
    assert.equal(parseYaml(yaml.text).kind, 'PartialObjectMetadata');
    const pb = await fx.request('GET', `${cms}/p1`, { headers: { accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    const decoded = decodeObject(pb.body) as any;
    assert.equal(decoded.kind, 'PartialObjectMetadata');
    assert.equal(decoded.metadata.name, 'p1');
    assert.deepEqual(decoded.metadata.annotations, { note: 'n' });
    const pbl = await fx.request('GET', `${cms}?labelSelector=app%3Drep`, { headers: { accept: poml('v1', 'vnd.kubernetes.protobuf') } });
    const list = decodeObject(pbl.body) as any;
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.equal(list.items.length, 2);
  });

  it('a watch sends PartialObjectMetadata events', async () => {
    const rv = (await fx.request('GET', cms)).json().metadata.resourceVersion;
    const w = await openWatch(fx, `${cms}?watch=true&resourceVersion=${rv}`, { accept: pom() });
    assert.equal(w.status, 200);
    assert.equal(w.headers['content-type'], 'application/json');
    await fx.request('POST', cms, { body: cm('p3') });
    await fx.request('DELETE', `${cms}/p3`);
    const [added, deleted] = [await w.next(), await w.next()];
    assert.deepEqual([added.type, added.object.kind, added.object.metadata.name], ['ADDED', 'PartialObjectMetadata', 'p3']);
    assert.equal(added.object.data, undefined);
    assert.deepEqual([deleted.type, deleted.object.kind], ['DELETED', 'PartialObjectMetadata']);
    w.close();
  });

  it('the wrong form for the verb is 406, and a create asking for it writes nothing', async () => {
    const onList = await fx.request('GET', cms, { headers: { accept: pom() } });
    assert.equal(onList.status, 406);
    assert.equal(onList.json().message, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)');
    const onGet = await fx.request('GET', `${cms}/p1`, { headers: { accept: poml() } });
    assert.equal(onGet.status, 406);
    assert.equal(onGet.json().message, 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)');
    const create = await fx.request('POST', cms, { body: cm('never'), headers: { accept: poml() } });
    assert.equal(create.status, 406);
    assert.equal((await fx.request('GET', `${cms}/never`)).status, 404);
    const created = await fx.request('POST', cms, { body: cm('p4'), headers: { accept: pom() } });
    assert.equal(created.status, 201);
    assert.equal(created.json().kind, 'PartialObjectMetadata');
    const watch = await fx.request('GET', `${cms}?watch=true`, { headers: { accept: poml() } });
    assert.equal(watch.status, 406);
  });

  it('an unservable conversion falls back to the next clause', async () => {
    const res = await fx.request('GET', `${cms}/p1`, { headers: { accept: 'application/json;as=Deployment;g=meta.k8s.io;v=v1, application/json' } });
    assert.equal(res.status, 200);
    assert.equal(res.json().kind, 'ConfigMap');
  });
});

describe('Tables beyond JSON', () => {
  it('a Table in YAML', async () => {
    const res = await fx.request('GET', cms, { headers: { accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/yaml');
    const table = parseYaml(res.text);
    assert.equal(table.kind, 'Table');
    assert.ok(table.rows.some((r: any) => r.cells[0] === 'p1'));
  });

  it('a Table in Protobuf is 406; a YAML watch is 406 naming the stream types', async () => {
    const pb = await fx.request('GET', cms, { headers: { accept: 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1' } });
    assert.equal(pb.status, 406);
    const w = await fx.request('GET', `${cms}?watch=true`, { headers: { accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1beta1' } });
    assert.equal(w.status, 406);
    assert.equal(w.json().message, 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch');
  });
});
