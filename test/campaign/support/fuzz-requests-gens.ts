/**
 * Campaign support (fuzz-requests): fast-check arbitraries for everything about a request but its
 * body's content: query parameters, paths, methods, headers and impersonation headers.
 */
import fc from 'fast-check';

/** Hostile strings: unicode, NUL and control bytes, operators, long runs. */
export const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', '\u001b[0m', '\r\n', '%', '%00', '%zz', '%2F', '..', '/', '\uffff', '\ud800', '名前', 'ü', '\u200b'),
  fc.constantFrom('a in (', 'a notin (x,', '!', '!!a', 'a==b==c', 'a!=', '=b', 'a=b,', ',', 'a in (x),b notin (y)', 'a>1', 'a<2', 'a=(', 'a in ()', 'x/y=z', 'a=b=c'),
  fc.tuple(fc.constantFrom('a', '(', '=', ',', 'ü', '\u0000'), fc.integer({ min: 100, max: 6000 })).map(([c, n]) => c.repeat(n)),
);

/** A resourceVersion as text: negative, non-numeric, past 2^64, zero, empty, a small real one. */
export const resourceVersion: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('-1', '0', '', 'abc', '1.5', '1e3', '0x10', ' 1', '18446744073709551616', '99999999999999999999999999', '+1', '01'),
  fc.integer({ min: 1, max: 20 }).map(String),
  hostile,
);

const bools = fc.constantFrom('true', 'false', '1', '0', 'True', 'FALSE', 'yes', '', 't', 'f', 'x');
const ints = fc.oneof(fc.constantFrom('-1', '0', '1', '2', '500', 'abc', '1.5', '99999999999999999999', '9223372036854775807', '-9223372036854775808', '', ' 3', '0x5'), fc.integer({ min: -5, max: 1000 }).map(String));

/** One query parameter, name and value, from kube's list/get/watch/write/delete options or unknown. */
export const queryParam: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  fc.tuple(fc.constant('labelSelector'), fc.oneof(hostile, fc.constantFrom('app=seed', 'app!=seed', 'i in (1,2)', '!missing', 'app'))),
  fc.tuple(fc.constant('fieldSelector'), fc.oneof(hostile, fc.constantFrom('metadata.name=seed-1', 'metadata.namespace!=x', 'spec.nodeName=n', 'status.phase=Running', 'metadata.name==a', 'metadata.name', 'metadata.labels=x'))),
  fc.tuple(fc.constant('resourceVersion'), resourceVersion),
  fc.tuple(fc.constant('resourceVersionMatch'), fc.oneof(fc.constantFrom('Exact', 'NotOlderThan', 'exact', '', 'MostRecent'), hostile)),
  fc.tuple(fc.constant('continue'), fc.oneof(fc.base64String({ maxLength: 80 }), hostile, fc.constantFrom('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0', 'e30', 'bnVsbA'))),
  fc.tuple(fc.constant('limit'), ints),
  fc.tuple(fc.constant('timeoutSeconds'), ints),
  fc.tuple(fc.constant('watch'), bools),
  fc.tuple(fc.constant('allowWatchBookmarks'), bools),
  fc.tuple(fc.constant('sendInitialEvents'), bools),
  fc.tuple(fc.constant('dryRun'), fc.oneof(fc.constantFrom('All', 'all', 'None', ''), hostile)),
  fc.tuple(fc.constant('fieldManager'), fc.oneof(fc.constantFrom('m', 'x'.repeat(128), 'x'.repeat(129), 'a\u0001b', 'a\tb', '\u0000'), hostile)),
  fc.tuple(fc.constant('fieldValidation'), fc.oneof(fc.constantFrom('Strict', 'Warn', 'Ignore', 'strict', ''), hostile)),
  fc.tuple(fc.constant('propagationPolicy'), fc.oneof(fc.constantFrom('Orphan', 'Background', 'Foreground', 'orphan', ''), hostile)),
  fc.tuple(fc.constant('gracePeriodSeconds'), ints),
  fc.tuple(fc.constant('orphanDependents'), bools),
  fc.tuple(fc.constant('pretty'), bools),
  fc.tuple(fc.oneof(fc.constantFrom('foo', 'watch ', 'LIMIT', 'labelselector', 'as', '', '%', 'a[]', 'resourceVersion[]'), hostile), hostile),
);

/** Encodes one query parameter, percent-encoding it (or, rarely, leaving raw text in place). */
export function encodeParam([k, v]: readonly [string, string], raw: boolean): string {
  const kk = wellFormed(k);
  const vv = wellFormed(v);
  // Raw: only what cannot stand in a request line is escaped, so '&', '=', '%' and '+' split and confuse.
  if (raw) return `${kk}=${vv}`.replace(/[\s\u0000-\u001f\u007f-\u{10ffff}#]/gu, (c) => encodeURIComponent(c));
  return `${encodeURIComponent(kk)}=${encodeURIComponent(vv)}`;
}

/** s with lone surrogates replaced by U+FFFD (what UTF-8 can carry). */
export function wellFormed(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** A path segment: real names, unknown ones, dot segments, encodings, unicode, long runs. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('api', 'apis', 'v1', 'v2', 'namespaces', 'fuzz', 'default', 'configmaps', 'pods', 'seed-1', 'status', 'scale', 'log', 'proxy', 'exec', 'watch', 'apps', 'batch', 'rbac.authorization.k8s.io', 'nope.example.com', 'v1beta99'),
  fc.constantFrom('.', '..', '%2e', '%2E%2e', '%2F', 'a%2Fb', '%00', '%', '%zz', '%c3%bc', '%ff%fe', '~', ';', ';a=b', '*', '%20', '+', '?', '#x', ''),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(wellFormed(s))),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'a'.repeat(n)),
);

/** A path: a known prefix or nothing, then random segments. */
export const path: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', '/api/v1', '/apis', '/api/v1/namespaces/fuzz', '/apis/apps/v1/namespaces/fuzz', '/api/v1/namespaces/fuzz/configmaps'), fc.array(pathSegment, { maxLength: 6 }), fc.boolean())
  .map(([p, segs, slash]) => `${p}/${segs.join('/')}${slash ? '/' : ''}`.replace(/^\/\//, '/'));

/** An HTTP method: the verbs kube routes, WebDAV and odd ones, and random tokens. */
export const method: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'PATCH', 'DELETE', 'CONNECT', 'get', 'Get', 'PURGE', 'LINK', 'QUERY'),
  fc.stringMatching(/^[A-Z]{1,12}$/),
);

/** A request header value: printable, latin1, unicode (sent as UTF-8 bytes), control bytes. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }).map((s) => Buffer.from(wellFormed(s), 'utf8').toString('latin1')),
  fc.constantFrom('', ' ', '\u0001', 'a\u0000b', 'x'.repeat(3000), 'system:masters', 'system:admin', 'fuzz-reader'),
);
