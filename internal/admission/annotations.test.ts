import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditRecorder } from '../audit/interface.js';
import type { RequestContext } from '../request/context.js';
import { annotationKeyError, annotatorFor } from './annotations.js';

describe('admission audit annotations', () => {
  it('accepts "<DNS subdomain>/<name>" keys only, with kube’s errors', () => {
    assert.equal(annotationKeyError('podsecurity.admission.k8s.io/enforce-policy'), undefined);
    assert.equal(
      annotationKeyError('no-prefix')?.message,
      "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')",
    );
    assert.match(annotationKeyError('Bad_Prefix/x')?.message ?? '', /^annotation key has invalid format prefix part .*\. A qualified name like 'podsecuritypolicy\.admission\.k8s\.io\/admit-policy' is required\.$/);
  });

  it('records into the audit event; refuses to overwrite a key with another value', () => {
    const recorded: Array<[string, string]> = [];
    const audit = { level: 'Metadata', annotate: (k: string, v: string) => recorded.push([k, v]) } as unknown as AuditRecorder;
    const add = annotatorFor({ audit } as RequestContext);
    assert.equal(add('example.com/a', '1'), undefined);
    assert.equal(add('example.com/a', '1'), undefined);
    assert.equal(add('example.com/a', '2')?.message, 'admission annotations are not allowd to be overwritten, key:"example.com/a", old value: {Metadata 1}, new value: {Metadata 2}');
    assert.ok(add('bad key', 'x') instanceof Error);
    assert.deepEqual(recorded, [['example.com/a', '1'], ['example.com/a', '1']]);
    assert.equal(annotatorFor({} as RequestContext)('example.com/a', '1'), undefined, 'unaudited: only the key is checked');
  });
});
