import assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { unescapeExtraKey } from '../authn/request-header.js';
import { escapeExtraKey, setAuthProxyHeaders } from './auth-proxy-headers.js';

describe('front-proxy headers', () => {
  it('escape extra keys as client-go does and read back through the request-header authenticator', () => {
    assert.equal(escapeExtraKey('scopes'), 'scopes');
    assert.equal(escapeExtraKey('acme.com/project'), 'acme.com%2Fproject');
    assert.equal(escapeExtraKey('100%'), '100%25');
    assert.equal(escapeExtraKey('ünï code'), '%C3%BCn%C3%AF%20code');
    for (const key of ['acme.com/project', '100%', 'ünï code', 'a:b=c']) assert.equal(unescapeExtraKey(escapeExtraKey(key)), key);
  });

  it('replace any identity headers the client sent', () => {
    const headers: OutgoingHttpHeaders = { 'x-remote-user': 'mallory', 'X-Remote-Group': 'system:masters', 'x-remote-extra-scopes': 'all', accept: 'application/json' };
    setAuthProxyHeaders(headers, { name: 'bob', uid: 'u-1', groups: ['qa', 'system:authenticated'], extra: { 'acme.com/project': ['apollo'], empty: [] } });
    assert.deepEqual(headers, {
      accept: 'application/json',
      'X-Remote-User': 'bob',
      'X-Remote-Uid': 'u-1',
      'X-Remote-Group': ['qa', 'system:authenticated'],
      'X-Remote-Extra-acme.com%2Fproject': ['apollo'],
    });
  });
});
