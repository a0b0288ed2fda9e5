import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubeletLogQuery, parsePodLogOptions, PodLogOptionsDecodeError, validatePodLogOptions } from './pod-log-options.js';

const parse = (q: string) => parsePodLogOptions(new URLSearchParams(q));

describe('PodLogOptions', () => {
  it('decodes the query as kube does', () => {
    assert.deepEqual(parse('container=c&follow=1&previous=True&timestamps=t&tailLines=5&limitBytes=10&sinceSeconds=3&insecureSkipTLSVerifyBackend=true'), {
      container: 'c', follow: true, previous: true, timestamps: true, insecureSkipTLSVerifyBackend: true, sinceSeconds: 3, tailLines: 5, limitBytes: 10,
    });
    assert.equal(parse('sinceTime=2024-05-01T10:00:00Z').sinceTimeMs, Date.parse('2024-05-01T10:00:00Z'));
    // The generated url.Values conversion: the first value counts, a boolean is false only for 0
    // and false, an integer present but empty is refused, an empty or null sinceTime is unset.
    assert.equal(parse('follow=yes').follow, true);
    assert.equal(parse('follow=').follow, true);
    assert.equal(parse('follow=FALSE&follow=true').follow, false);
    assert.equal(parse('tailLines=3&tailLines=5').tailLines, 3);
    assert.throws(() => parse('tailLines='), PodLogOptionsDecodeError);
    assert.equal(parse('sinceTime=null').sinceTimeMs, undefined);
    assert.equal(parse('sinceTime=').sinceTimeMs, undefined);
    assert.throws(() => parse('tailLines=1.5'), /strconv.ParseInt: parsing "1.5": invalid syntax/);
    assert.throws(() => parse('sinceTime=yesterday'), /parsing time "yesterday"/);
  });
  it('validates as ValidatePodLogOptions', () => {
    assert.deepEqual(validatePodLogOptions(parse('tailLines=0&limitBytes=1&sinceSeconds=1')), []);
    assert.deepEqual(validatePodLogOptions(parse('tailLines=-1')).map((e) => `${e.field}: ${e.message}`), ['tailLines: Invalid value: -1: must be greater than or equal to 0']);
    assert.deepEqual(validatePodLogOptions(parse('limitBytes=0')).map((e) => e.message), ['Invalid value: 0: must be greater than 0']);
    assert.deepEqual(validatePodLogOptions(parse('sinceSeconds=0')).map((e) => e.field), ['sinceSeconds']);
    assert.deepEqual(validatePodLogOptions(parse('sinceSeconds=5&sinceTime=2024-05-01T10:00:00Z')).map((e) => e.reason), ['FieldValueForbidden']);
    assert.deepEqual(validatePodLogOptions(parse('stream=Stdout')).map((e) => `${e.field}: ${e.message}`), ['stream: Forbidden: may not be specified']);
  });
  it('passes kube LogLocation parameters to the kubelet, sorted', () => {
    assert.equal(kubeletLogQuery(parse('container=c&follow=true&tailLines=2&timestamps=true&previous=true&limitBytes=9')).toString(), 'follow=true&limitBytes=9&previous=true&tailLines=2&timestamps=true');
    assert.equal(kubeletLogQuery(parse('sinceTime=2024-05-01T10:00:00.5Z')).toString(), 'sinceTime=2024-05-01T10%3A00%3A00Z');
  });
});
