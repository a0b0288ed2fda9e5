/**
 * CustomResourceDefinition validation against real etcd: invalid CRDs get kube's 422 Invalid
 * with one cause per error (reason, field, message) and kube's message; a shared schema is
 * reported under spec.validation, differing ones under spec.versions[i].schema; valid CRDs,
 * rich ones included, are created; updates keep group and plural, relax nothing for a structural
 * CRD, and keep stored versions declared.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, type TestResponse } from '../support/server.js';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const fx = useServer();

function crd(name: string, edit: (c: any) => void = () => undefined): any {
  const c: any = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.validation.example.com` },
    spec: {
      group: 'validation.example.com',
      scope: 'Namespaced',
      names: { plural: `${name}s`, singular: name, kind: name[0]?.toUpperCase() + name.slice(1) },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
        },
      ],
    },
  };
  edit(c);
  return c;
}

describe('CustomResourceDefinition validation', () => {
  it('answers an invalid schema with 422 and kube causes', async () => {
    const body = crd('alpha', (c) => {
      const spec = c.spec.versions[0].schema.openAPIV3Schema.properties.spec;
      spec.properties.size = { description: 'no type' };
      spec.properties.tags = { type: 'array', items: { type: 'string' }, uniqueItems: true };
    });
    const res = await fx.request('POST', crds, { body });
    assert.equal(res.status, 422, res.text);
    const status = res.json();
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.details.kind, 'CustomResourceDefinition');
    assert.equal(status.details.group, 'apiextensions.k8s.io');
    assert.deepEqual(status.details.causes, [
      {
        reason: 'FieldValueRequired',
        field: 'spec.validation.openAPIV3Schema.properties[spec].properties[size].type',
        message: 'Required value: must not be empty for specified object fields',
      },
      {
        reason: 'FieldValueForbidden',
        field: 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems',
        message: 'Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      },
    ]);
    assert.equal(
      status.message,
      'CustomResourceDefinition.apiextensions.k8s.io "alphas.validation.example.com" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields, spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic]',
    );
  });

  it('reports per-version paths when the versions have their own schemas, and the field rules elsewhere', async () => {
    const body = crd('beta', (c) => {
      c.spec.versions.push({
        name: 'v2',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-list-type': 'set' } } } },
        additionalPrinterColumns: [{ name: 'Size', type: 'float', jsonPath: '.spec.size' }],
      });
      c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://conv.example.com' }, conversionReviewVersions: ['v1'] } };
    });
    const res = await fx.request('POST', crds, { body });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.json().details.causes.map((c: any) => `${c.reason} ${c.field}: ${c.message}`),
      [
        'FieldValueInvalid spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified',
        'FieldValueInvalid spec.versions[1].additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
        "FieldValueInvalid spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      ],
    );
  });

  it('creates valid CRDs and checks updates', async () => {
    const body = crd('gamma', (c) => {
      const root = c.spec.versions[0].schema.openAPIV3Schema;
      root.properties.status = { type: 'object', properties: { replicas: { type: 'integer' } } };
      root.properties.spec.properties.mode = { type: 'string', default: 'fast', enum: ['fast', 'slow'] };
      c.spec.versions[0].subresources = { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' } };
      c.spec.versions[0].additionalPrinterColumns = [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }];
      c.spec.versions[0].selectableFields = [{ jsonPath: '.spec.mode' }];
    });
    const created = await fx.request('POST', crds, { body });
    assert.equal(created.status, 201, created.text);
    // The CRD controllers write its status meanwhile: every update starts from a fresh read, and
    // one that lost the race to a status write (409) is made again from a new read.
    const name = created.json().metadata.name;
    const putFresh = async (change: (live: any) => any): Promise<TestResponse> => {
      for (let i = 0; ; i++) {
        const live = structuredClone((await fx.request('GET', `${crds}/${name}`)).json());
        const res = await fx.request('PUT', `${crds}/${name}`, { body: change(live) });
        if (res.status !== 409 || i >= 10) return res;
      }
    };
    const res = await putFresh((live) => ({ ...live, spec: { ...live.spec, group: 'other.example.com', names: { ...live.spec.names, plural: 'gammaz' } } }));
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.json().details.causes.map((c: any) => `${c.field}: ${c.message}`),
      ['spec.group: Invalid value: "other.example.com": field is immutable', 'spec.names.plural: Invalid value: "gammaz": field is immutable'],
    );
    const dropped = await putFresh((live) => ({ ...live, spec: { ...live.spec, versions: [{ ...live.spec.versions[0], name: 'v2' }] } }));
    assert.equal(dropped.status, 422, dropped.text);
    assert.deepEqual(
      dropped.json().details.causes.map((c: any) => c.field),
      ['status.storedVersions[0]'],
    );
    const updated = await putFresh((grown) => {
      grown.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.extra = { type: 'boolean' };
      return grown;
    });
    assert.equal(updated.status, 200, updated.text);
  });

  it('refuses preserveUnknownFields and a protected group without approval', async () => {
    const res = await fx.request('POST', crds, {
      body: crd('delta', (c) => {
        c.spec.preserveUnknownFields = true;
        c.spec.group = 'widgets.k8s.io';
        c.metadata.name = 'deltas.widgets.k8s.io';
      }),
    });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.json().details.causes.map((c: any) => `${c.field}: ${c.message}`),
      [
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
    );
  });
});
