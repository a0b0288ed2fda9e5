import assert from 'node:assert/strict';
import { mkdtemp, readFile, readlink, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writePayload } from './atomic-writer.js';

describe("kubelet's atomic writer", () => {
  let dir: string;
  after(() => rm(dir, { recursive: true, force: true }));
  it('writes a timestamped directory behind ..data and per-name symlinks; swaps it on change', async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-atomic-'));
    const f = (s: string, mode = 0o644) => ({ data: Buffer.from(s), mode });
    assert.equal(await writePayload(dir, new Map([['a', f('1')], ['sub/b', f('2', 0o400)]])), true);
    const first = await readlink(join(dir, '..data'));
    assert.match(first, /^\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+$/);
    assert.equal(await readlink(join(dir, 'a')), '..data/a');
    assert.equal(await readFile(join(dir, 'sub', 'b'), 'utf8'), '2');
    assert.equal((await stat(join(dir, 'sub', 'b'))).mode & 0o777, 0o400);
    assert.equal(await writePayload(dir, new Map([['a', f('1')], ['sub/b', f('2', 0o400)]])), false);
    assert.equal(await writePayload(dir, new Map([['a', f('changed')]])), true);
    assert.equal(await readFile(join(dir, 'a'), 'utf8'), 'changed');
    const names = (await readdir(dir)).sort();
    assert.equal(names.length, 3, names.join(' '));
    assert.ok(!names.includes('sub') && !names.includes(first));
  });
  it('refuses paths that leave the volume', async () => {
    await assert.rejects(writePayload(dir, new Map([['../x', { data: Buffer.from(''), mode: 0o644 }]])), /invalid path/);
  });
});
