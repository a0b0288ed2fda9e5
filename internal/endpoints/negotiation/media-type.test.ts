import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apierrors/status-error.js';
import { negotiateOutput, parseAccept } from './media-type.js';

function status(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return { code: e.status.code ?? 0, message: e.status.message ?? '' };
  }
  assert.fail('expected a StatusError');
}

describe('negotiateOutput', () => {
  it('defaults to JSON without an Accept header', () => {
    assert.deepEqual(negotiateOutput(undefined), { encoding: 'json', as: '', contentType: 'application/json' });
    assert.equal(negotiateOutput('*/*').encoding, 'json');
    assert.equal(negotiateOutput('application/*').encoding, 'json');
  });

  it('honours q-values and order', () => {
    assert.equal(negotiateOutput('application/json;q=0.5, application/yaml').encoding, 'yaml');
    assert.equal(negotiateOutput('application/yaml;q=0, application/json').encoding, 'json');
    assert.equal(negotiateOutput('text/html, application/vnd.kubernetes.protobuf').encoding, 'protobuf');
  });

  it('Table in JSON and YAML, never Protobuf; the Content-Type stays plain', () => {
    const t = negotiateOutput('application/json;as=Table;v=v1;g=meta.k8s.io');
    assert.deepEqual(t, { encoding: 'json', as: 'Table', metaVersion: 'v1', contentType: 'application/json' });
    assert.equal(negotiateOutput('application/yaml;as=Table;v=v1beta1;g=meta.k8s.io').as, 'Table');
    const fallback = negotiateOutput('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json');
    assert.deepEqual([fallback.encoding, fallback.as], ['json', '']);
    assert.equal(status(() => negotiateOutput('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io')).code, 406);
    assert.equal(status(() => negotiateOutput('application/json;as=Table;v=v1;g=meta.k8s.io', false)).code, 406);
  });

  it('PartialObjectMetadata and its List in every encoding, even for kinds without Protobuf', () => {
    for (const enc of ['json', 'yaml', 'vnd.kubernetes.protobuf']) {
      const t = negotiateOutput(`application/${enc};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`, true, false);
      assert.equal(t.as, 'PartialObjectMetadata');
      assert.equal(t.metaVersion, 'v1');
    }
    assert.equal(negotiateOutput('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1').metaVersion, 'v1beta1');
    // a kind without Protobuf still refuses plain Protobuf
    assert.equal(status(() => negotiateOutput('application/vnd.kubernetes.protobuf', true, false)).code, 406);
  });

  it('any of as=, g=, v= is a conversion request that must name a served meta.k8s.io kind', () => {
    for (const bad of [
      'application/json;as=Table',
      'application/json;as=Table;g=meta.k8s.io;v=v2',
      'application/json;as=Table;g=apps;v=v1',
      'application/json;as=Deployment;g=meta.k8s.io;v=v1',
      'application/json;v=v1',
      'application/json;g=meta.k8s.io',
      'application/json;stream=other',
    ]) {
      const s = status(() => negotiateOutput(bad));
      assert.equal(s.code, 406, bad);
      assert.equal(s.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    }
    assert.equal(negotiateOutput('application/json;stream=watch').as, '');
    assert.equal(negotiateOutput('application/json;pretty=true;charset=utf-8').as, '');
  });

  it('parseAccept drops q=0 and sorts by specificity within a q', () => {
    const r = parseAccept('*/*, application/json;as=Table;v=v1;g=meta.k8s.io, application/json;q=0');
    assert.deepEqual(r.map((x) => x.params.as ?? x.type), ['Table', '*']);
  });
});
