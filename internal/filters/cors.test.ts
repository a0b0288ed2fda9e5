import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileOriginPattern } from './cors.js';

describe('CORS origin patterns', () => {
  it('searches the whole header as Go MatchString does, so only pinned patterns are safe', () => {
    assert.equal(compileOriginPattern('example\\.com').test('https://example.com.evil.io'), true);
    assert.equal(compileOriginPattern('//example\\.com(:|$)').test('https://example.com.evil.io'), false);
    assert.equal(compileOriginPattern('//example\\.com(:|$)').test('https://example.com:8443'), true);
  });

  it('takes a leading Go flag group, and reports what does not compile', () => {
    assert.equal(compileOriginPattern('(?i)^https://EXAMPLE\\.com$').test('https://example.com'), true);
    assert.throws(() => compileOriginPattern('^https://(a$'), /^Error: error parsing regexp: /);
  });
});
