/**
 * Kubernetes' CEL libraries against the examples of kube's library documentation: each expression
 * below is true in kube-apiserver 1.33 (or fails there, for the error table).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelCompileError, CelEvaluationError, compileExpression } from './expression.js';

const truths: Record<string, string[]> = {
  lists: [
    '[1, 2, 3].isSorted()',
    "['a', 'b', 'b', 'c'].isSorted()",
    '![2.0, 1.0].isSorted()',
    '[1, 2, 3].sum() == 6',
    '[1.0, 2.0, 3.0].sum() == 6.0',
    '[].sum() == 0',
    '[1, 3].min() == 1',
    "['c', 'a'].min() == 'a'",
    '[1, 2, 3].max() == 3',
    '[1, 2, 2, 3].indexOf(2) == 1',
    "['a', 'b', 'b', 'c'].lastIndexOf('b') == 2",
    '[1.0].indexOf(1.1) == -1',
    '[].indexOf(1) == -1',
  ],
  sets: ['sets.contains([1, 2, 3, 4], [2, 3])', 'sets.equivalent([1, 2, 3], [3u, 2.0, 1])', 'sets.intersects([1], [1, 2])', '!sets.intersects([1], [2])'],
  regex: [
    "'abc 123'.find('[0-9]+') == '123'",
    "'abc 123'.find('xyz') == ''",
    "'123 abc 456'.findAll('[0-9]+') == ['123', '456']",
    "'123 abc 456'.findAll('[0-9]+', 1) == ['123']",
    "'123 abc 456'.findAll('xyz') == []",
  ],
  strings: [
    "'hello'.charAt(4) == 'o'",
    "'hello mellow'.indexOf('jello') == -1",
    "'hello mellow'.lastIndexOf('ello') == 7",
    "'TacoCat'.lowerAscii() == 'tacocat'",
    "'TacoCat'.upperAscii() == 'TACOCAT'",
    "'hello hello'.replace('he', 'we', 1) == 'wello hello'",
    "'hello hello hello'.split(' ', 2) == ['hello', 'hello hello']",
    "'tacocat'.substring(4) == 'cat'",
    "' \\ttrim\\n '.trim() == 'trim'",
    "['hello', 'mellow'].join(' ') == 'hello mellow'",
    "strings.quote('single-quote with \"double quote\"') == '\"single-quote with \\\\\"double quote\\\\\"\"'",
    "'%s is %d'.format(['x', 3]) == 'x is 3'",
  ],
  url: [
    "url('https://example.com/path?query=val#fragment').getScheme() == 'https'",
    "url('/absolute-path').getScheme() == ''",
    "url('https://example.com:80/').getHost() == 'example.com:80'",
    "url('https://example.com/').getHost() == 'example.com'",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'",
    "url('/path').getHost() == ''",
    "url('https://example.com:80/').getHostname() == 'example.com'",
    "url('https://127.0.0.1:80/').getHostname() == '127.0.0.1'",
    "url('https://[::1]:80/').getHostname() == '::1'",
    "url('https://example.com:80/').getPort() == '80'",
    "url('https://example.com/').getPort() == ''",
    "url('https://example.com/path').getEscapedPath() == '/path'",
    "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    "url('https://example.com/path').getQuery() == {}",
    "isURL('https://example.com:80/path?query=val#fragment')",
    "isURL('/absolute-path')",
    "!isURL('https://a:b:c/')",
    "!isURL('../relative-path')",
    "type(url('https://example.com')) == kubernetes.URL",
  ],
  quantity: [
    "isQuantity('1.3G') && isQuantity('1.3Gi') && isQuantity('10000k')",
    "!isQuantity('1,3G') && !isQuantity('200K') && !isQuantity('Three') && !isQuantity('Mi')",
    "quantity('50M').sign() == 1 && quantity('-50M').sign() == -1 && quantity('0').sign() == 0",
    "quantity('50k').isInteger()",
    "!quantity('9999999999999999999999999999999999999G').isInteger()",
    "quantity('50k').asInteger() == 50000",
    "quantity('50k').asApproximateFloat() == 50000.0",
    "quantity('50k').add(quantity('20')) == quantity('50.02k')",
    "quantity('50k').add(20) == quantity('50020')",
    "quantity('50k').sub(quantity('20')) == quantity('49980')",
    "quantity('50k').sub(20) == quantity('49980')",
    "quantity('200M').compareTo(quantity('0.2G')) == 0",
    "quantity('50M').compareTo(quantity('50Mi')) == -1",
    "quantity('50Mi').compareTo(quantity('50M')) == 1",
    "!quantity('50M').isGreaterThan(quantity('50Mi'))",
    "quantity('50M').isLessThan(quantity('50Mi'))",
  ],
  ip: [
    "isIP('127.0.0.1') && isIP('::1')",
    "!isIP('127.0.0.256') && !isIP(':::1') && !isIP('127.0.0.1/32')",
    "ip('127.0.0.1').family() == 4 && ip('::1').family() == 6",
    "ip.isCanonical('127.0.0.1') && ip.isCanonical('2001:db8::abcd')",
    "!ip.isCanonical('2001:DB8::ABCD') && !ip.isCanonical('2001:db8::0:0:0:abcd')",
    "ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified() && !ip('127.0.0.1').isUnspecified()",
    "ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && !ip('192.168.0.1').isLoopback()",
    "ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast()",
    "ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('192.168.0.1').isLinkLocalUnicast()",
    "ip('192.168.0.1').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()",
    "string(ip('2001:db8:0:0::abcd')) == '2001:db8::abcd'",
    "ip('::1') == ip('0:0::1')",
  ],
  cidr: [
    "isCIDR('192.168.0.0/16') && isCIDR('::1/128')",
    "!isCIDR('192.168.0.0') && !isCIDR('::1/129')",
    "cidr('192.168.0.0/16').containsIP(ip('192.168.0.1'))",
    "cidr('192.168.0.0/16').containsIP('192.168.0.1')",
    "!cidr('192.168.0.0/24').containsIP(ip('::1'))",
    "cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))",
    "cidr('192.168.0.0/16').containsCIDR('192.168.0.0/16')",
    "!cidr('192.168.0.0/24').containsCIDR('192.168.0.0/16')",
    "cidr('192.168.0.0/24').ip() == ip('192.168.0.0')",
    "cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')",
    "cidr('::1/128').prefixLength() == 128",
    "string(cidr('192.168.0.0/24')) == '192.168.0.0/24'",
  ],
  format: [
    "!format.dns1123Label().validate('my-label-name').hasValue()",
    "format.dns1123Label().validate('MY_LABEL').hasValue()",
    "!format.named('dns1123Subdomain').value().validate('apiextensions.k8s.io').hasValue()",
    "!format.named('unknown').hasValue()",
    "!format.dns1123LabelPrefix().validate('my-prefix-').hasValue()",
    "format.uuid().validate('not-a-uuid').hasValue()",
    "!format.date().validate('2021-01-01').hasValue()",
  ],
  semver: [
    "isSemver('1.0.0') && !isSemver('v1.0') && isSemver('v1.0', true)",
    "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
    "semver('1.2.3').isGreaterThan(semver('1.2.2'))",
    "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
    "semver('1.0.0').compareTo(semver('1.0.0')) == 0",
    "semver('v1.2', true) == semver('1.2.0')",
  ],
  optional: [
    'optional.of(1).hasValue() && optional.of(1).value() == 1',
    '!optional.none().hasValue() && optional.none().orValue(5) == 5',
    "optional.ofNonZeroValue('').orValue('x') == 'x'",
    'optional.none().or(optional.of(2)).value() == 2',
    "{'a': 1}.?a.orValue(0) == 1 && {'a': 1}.?b.orValue(0) == 0",
    "{'a': {'b': 2}}.?a.?b.value() == 2 && !{'a': {}}.?a.?b.hasValue()",
    "{'k': 'v'}[?'k'] == optional.of('v') && [1][?3] == optional.none() && optional.of(1) != optional.none()",
    "'a.?b[?c]' == 'a.?b' + '[?c]'",
  ],
  macros: [
    'cel.bind(x, [1, 2], x + x) == [1, 2, 1, 2]',
    '[1, 2, 3].exists_one(x, x > 2)',
    '[1, 2, 3].all(i, v, v > i) && {"a": 1}.exists(k, v, k == "a" && v == 1) && [1, 2].existsOne(i, v, v == 2)',
    '[1, 2, 3].transformList(i, v, v > 1, i * v) == [2, 6]',
    "{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v + 1) == {'b': 3}",
    "{'a': 1}.transformMapEntry(k, v, {v: k}) == {1: 'a'}",
  ],
};

const errors: [string, RegExp][] = [
  ["url('../relative-path')", /URL parse error during conversion from string: parse "..\/relative-path": invalid URI for request/],
  ["quantity('1,3G')", /quantities must match the regular expression/],
  ["quantity('1.5').asInteger()", /cannot convert value to integer/],
  ["ip('::ffff:1.2.3.4')", /IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed/],
  ["cidr('192.168.0.0')", /is not a valid CIDR/],
  ['[].min()', /empty list/],
  ['optional.none().value()', /optional.none\(\) dereference/],
];

function run(expr: string, activation: Record<string, unknown> = {}, variables: string[] = []): unknown {
  return compileExpression(expr, { variables }).evaluate(activation);
}

describe('Kubernetes CEL libraries', () => {
  for (const [lib, exprs] of Object.entries(truths)) {
    it(`${lib}: the documented examples hold`, () => {
      for (const e of exprs) assert.equal(run(e), true, e);
    });
  }

  it('fails where kube fails, with its messages', () => {
    for (const [e, message] of errors) assert.throws(() => run(e), (err: unknown) => err instanceof CelEvaluationError && message.test(err.message), e);
  });

  it('reads JSON objects with integers as ints, escaped property names and kube’s no such key', () => {
    const object = { spec: { replicas: 3, 'x-prop': 'a', namespace: 'n' }, metadata: { labels: { 'app.kubernetes.io/name': 'web' } } };
    assert.equal(run('object.spec.replicas + 1 == 4 && type(object.spec.replicas) == int', { object }, ['object']), true);
    assert.equal(run("object.spec.x__dash__prop == 'a' && object.spec.__namespace__ == 'n'", { object }, ['object']), true);
    assert.equal(run("object.metadata.labels['app.kubernetes.io/name'] == 'web'", { object }, ['object']), true);
    assert.equal(run('has(object.spec.replicas) && !has(object.spec.paused)', { object }, ['object']), true);
    assert.throws(() => run('object.spec.paused', { object }, ['object']), /^Error: no such key: paused$|no such key: paused/);
  });

  it('refuses undeclared references and unknown functions at compile time, as cel-go reports them', () => {
    assert.throws(
      () => compileExpression('object.x > y', { variables: ['object'] }),
      (err: unknown) => err instanceof CelCompileError && err.message === "ERROR: <input>:1:12: undeclared reference to 'y' (in container '')\n | object.x > y\n | ...........^",
    );
    assert.throws(() => compileExpression('nosuch(1)', { variables: [] }), /undeclared reference to 'nosuch'/);
    assert.throws(() => compileExpression("'a'.startsWith()", { variables: [] }), /found no matching overload for 'startsWith'/);
    assert.doesNotThrow(() => compileExpression('[1].all(x, x > 0) && cel.bind(v, 1, v > 0)', { variables: [] }));
  });

  it('stops an expression past its cost limit with kube’s message', () => {
    const e = compileExpression('items.all(x, items.all(y, x + y >= 0))', { variables: ['items'], costLimit: 10_000 });
    const items = Array.from({ length: 200 }, (_, i) => i);
    assert.throws(() => e.evaluate({ items }), (err: unknown) => err instanceof CelEvaluationError && err.costExceeded && err.message === 'operation cancelled: actual cost limit exceeded');
    assert.equal(e.evaluate({ items: items.slice(0, 10) }), true);
    // The default is kube's per-call limit of 1,000,000.
    assert.equal(compileExpression('items.all(x, items.all(y, x + y >= 0))', { variables: ['items'] }).evaluate({ items }), true);
  });
});
