import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBitmap, encodeBitmap, portRangeOffset } from './node-port-allocator.js';
import { parsePortRange, portRangeString } from './port-range.js';

describe('--service-node-port-range', () => {
  it('reads kube\'s three notations and refuses the rest with its messages', () => {
    assert.equal(portRangeString(parsePortRange('30000-32767')), '30000-32767');
    assert.equal(portRangeString(parsePortRange('30000+99')), '30000-30099');
    assert.equal(portRangeString(parsePortRange(' 8080 ')), '8080-8080');
    assert.deepEqual(parsePortRange(''), { base: 0, size: 0 });
    assert.throws(() => parsePortRange('a-b'), { message: 'strconv.Atoi: parsing "a": invalid syntax' });
    assert.throws(() => parsePortRange('1-2+3'), { message: 'unable to parse port range: 1-2+3' });
    assert.throws(() => parsePortRange('30000-70000'), { message: 'the port range cannot be greater than 65535: 30000-70000' });
    assert.throws(() => parsePortRange('32000-31000'), { message: 'end port cannot be less than start port: 32000-31000' });
  });

  it('stores the bitmap as Go\'s big.Int bytes', () => {
    const bits = new Uint8Array(2768);
    assert.equal(encodeBitmap(bits), '');
    bits[0] = 1;
    bits[9] = 1;
    assert.deepEqual([...Buffer.from(encodeBitmap(bits), 'base64')], [0x02, 0x01]);
    assert.deepEqual([...decodeBitmap(encodeBitmap(bits), 2768).keys()].filter((i) => decodeBitmap(encodeBitmap(bits), 2768)[i]), [0, 9]);
    assert.equal(portRangeOffset(2768), 86);
    assert.equal(portRangeOffset(16), 0);
    assert.equal(portRangeOffset(100), 16);
  });
});
