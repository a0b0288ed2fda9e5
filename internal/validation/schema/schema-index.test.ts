import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { generatedResources } from '../../../api/gen/resources.js';
import { schemaDefinitions } from '../../../api/gen/schemas.js';
import { definitionNode, hasSchema, kindNode, schemaKindKeys } from './schema-index.js';
import type { GVK, SchemaNode } from './types.js';

function parseKey(key: string): GVK {
  const parts = key.split('/');
  return parts.length === 2
    ? { group: '', version: parts[0] as string, kind: parts[1] as string }
    : { group: parts[0] as string, version: parts[1] as string, kind: parts[2] as string };
}

describe('the generated schema table', () => {
  test('every kind in the table has a struct schema', () => {
    const keys = schemaKindKeys();
    assert.ok(keys.length > 250, `only ${keys.length} kinds`);
    for (const key of keys) {
      const gvk = parseKey(key);
      assert.ok(hasSchema(gvk), key);
      const node = kindNode(gvk);
      assert.equal(node?.kind, 'struct', key);
    }
  });

  test('every served resource and subresource kind has a schema with apiVersion and kind', () => {
    const missing: string[] = [];
    for (const r of generatedResources) {
      if (!hasSchema(r)) missing.push(`${r.group}/${r.version}/${r.kind}`);
      const fields = kindNode(r)?.fields;
      if (fields !== undefined && !(fields.has('apiVersion') && fields.has('kind'))) missing.push(`${r.kind} lacks apiVersion/kind`);
      for (const s of r.subresources) {
        // The connect options (exec, attach, portforward, proxy) come from query parameters, never a body.
        if (s.kind.endsWith('Options')) continue;
        if (!hasSchema(s)) missing.push(`${s.group}/${s.version}/${s.kind} (${r.resource}/${s.name})`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every definition resolves, and every reference and extension in it is understood', () => {
    const seen = new Set<SchemaNode>();
    const visit = (node: SchemaNode): void => {
      if (seen.has(node)) return;
      seen.add(node);
      if (node.kind === 'struct') for (const f of node.fields.values()) visit(f.node);
      else if (node.kind === 'array') visit(node.items);
      else if (node.kind === 'map') visit(node.values);
    };
    for (const name of Object.keys(schemaDefinitions)) visit(definitionNode(name));
    assert.ok(seen.size >= Object.keys(schemaDefinitions).length);
  });

  test('core kinds map to their definitions, with Go names for decode errors', () => {
    const podNode = kindNode({ group: '', version: 'v1', kind: 'Pod' });
    assert.equal(podNode?.goType, 'v1.Pod');
    assert.equal(podNode?.structName, 'Pod');
    const spec = kindNode({ group: 'apps', version: 'v1', kind: 'Deployment' })?.fields.get('spec')?.node;
    assert.equal(spec?.kind === 'struct' ? spec.structName : undefined, 'DeploymentSpec');
    assert.equal(kindNode({ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' })?.definition, 'api.autoscaling.v1.HorizontalPodAutoscaler');
    assert.equal(kindNode({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' })?.definition, 'api.autoscaling.v2.HorizontalPodAutoscaler');
  });

  test('unknown kinds have no schema', () => {
    assert.equal(hasSchema({ group: 'example.com', version: 'v1', kind: 'Widget' }), false);
    assert.equal(hasSchema({ group: '', version: 'v2', kind: 'Pod' }), false);
    assert.equal(kindNode({ group: 'apps', version: 'v1', kind: 'Pod' }), undefined);
  });
});
