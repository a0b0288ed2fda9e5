import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo } from './request-info.js';

const info = (method: string, pathAndQuery: string) => {
  const [path, query = ''] = pathAndQuery.split('?');
  const i = parseRequestInfo(method, path as string, new URLSearchParams(query));
  return { verb: i.verb, name: i.name, namespace: i.namespace, resource: i.resource, subresource: i.subresource };
};

describe('parseRequestInfo: verbs and names as kube authorizes them', () => {
  it('keeps a named GET a get whatever its watch parameter (the authorization fuzz found it authorized as a watch)', () => {
    assert.deepEqual(info('GET', '/api/v1/namespaces/ns0/configmaps/fz-a?watch=true'), { verb: 'get', name: 'fz-a', namespace: 'ns0', resource: 'configmaps', subresource: '' });
    assert.equal(info('GET', '/api/v1/namespaces/fz-b?watch=1').verb, 'get');
    assert.equal(info('GET', '/api/v1/nodes/n1/status?watch=true').verb, 'get');
  });

  it('makes a GET without a name a list or a watch, named by a metadata.name term of its field selector', () => {
    assert.deepEqual(info('GET', '/api/v1/namespaces/ns0/pods?watch=true&fieldSelector=metadata.name%3Dweb'), { verb: 'watch', name: 'web', namespace: 'ns0', resource: 'pods', subresource: '' });
    assert.equal(info('GET', '/api/v1/pods?fieldSelector=status.phase%3DRunning,metadata.name%3D%3Dweb').name, 'web');
    assert.equal(info('GET', '/api/v1/pods?fieldSelector=metadata.name!%3Dweb').name, '');
    assert.equal(info('GET', '/api/v1/pods?fieldSelector=metadata.name%3D..').name, '');
    assert.equal(info('GET', '/api/v1/pods?watch=false').verb, 'list');
    assert.equal(info('GET', '/api/v1/pods?watch=0').verb, 'list');
    assert.equal(info('GET', '/api/v1/pods?watch=FaLsE').verb, 'list');
    assert.equal(info('GET', '/api/v1/pods?watch=fal\u017fe').verb, 'list', 'strings.EqualFold folds U+017F to s');
    // kube's Convert_Slice_string_To_bool: any other value, the empty one too, is true.
    assert.equal(info('GET', '/api/v1/pods?watch=').verb, 'watch');
    assert.equal(info('GET', '/api/v1/pods?watch=f').verb, 'watch');
    assert.equal(info('GET', '/api/v1/pods?watch=yes').verb, 'watch');
    assert.equal(info('GET', '/api/v1/pods?watch=false&watch=true').verb, 'list', 'the first value counts');
  });

  it('takes the verb of the legacy /watch/ and /proxy/ paths, whose field selector names nothing', () => {
    assert.deepEqual(info('GET', '/api/v1/watch/namespaces/ns0/pods?fieldSelector=metadata.name%3Dweb'), { verb: 'watch', name: '', namespace: 'ns0', resource: 'pods', subresource: '' });
    assert.equal(info('POST', '/api/v1/watch/pods').verb, 'watch');
    assert.deepEqual(info('GET', '/api/v1/watch/namespaces/ns0/pods/web'), { verb: 'watch', name: 'web', namespace: 'ns0', resource: 'pods', subresource: '' });
    assert.equal(info('DELETE', '/api/v1/proxy/nodes/n1').verb, 'proxy');
  });

  it('makes a DELETE without a name a deletecollection', () => {
    assert.equal(info('DELETE', '/api/v1/namespaces/ns0/pods').verb, 'deletecollection');
    assert.equal(info('DELETE', '/api/v1/namespaces/ns0/pods/web').verb, 'delete');
  });
});
