import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { CriClient } from '../runtime/cri-client.js';
import { rotateIfNeeded, rotationStamp } from './rotation.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-rotate-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function fakeCri(reopened: string[], fail = false): CriClient {
  return {
    endpoint: 'fake',
    close() {},
    image: {} as CriClient['image'],
    runtime: {
      async ReopenContainerLog(req: { container_id?: string }) {
        if (fail) throw new Error('container is not running');
        reopened.push(req.container_id ?? '');
        return {};
      },
    } as unknown as CriClient['runtime'],
  };
}

describe('container log rotation', () => {
  it('names rotated files as kubelet does', () => {
    assert.equal(rotationStamp(new Date('2024-05-01T09:08:07Z')), '20240501-090807');
  });
  it('leaves a log under the size alone', async () => {
    const log = join(dir, 'small.log');
    await writeFile(log, 'x'.repeat(10));
    const reopened: string[] = [];
    assert.equal(await rotateIfNeeded(fakeCri(reopened), 'c1', log, { maxSize: 100, maxFiles: 3 }), false);
    assert.deepEqual(reopened, []);
  });
  it('rotates, reopens, compresses older files and keeps at most maxFiles', async () => {
    const sub = await mkdtemp(join(dir, 'c-'));
    const log = join(sub, '0.log');
    const reopened: string[] = [];
    for (let i = 0; i < 4; i++) {
      await writeFile(log, `content ${i} `.repeat(20));
      assert.equal(await rotateIfNeeded(fakeCri(reopened), 'c1', log, { maxSize: 50, maxFiles: 3 }, new Date(Date.UTC(2024, 4, 1, 10, 0, i))), true);
    }
    await writeFile(log, 'live');
    assert.deepEqual(reopened, ['c1', 'c1', 'c1', 'c1']);
    const names = (await readdir(sub)).sort();
    // The live file, the newest rotated one as it is, one older compressed: three files.
    assert.deepEqual(names, ['0.log', '0.log.20240501-100002.gz', '0.log.20240501-100003']);
    assert.match(gunzipSync(await readFile(join(sub, '0.log.20240501-100002.gz'))).toString(), /^content 2 /);
  });
  it('puts the file back when the runtime cannot reopen it', async () => {
    const log = join(dir, 'back.log');
    await writeFile(log, 'y'.repeat(100));
    await assert.rejects(rotateIfNeeded(fakeCri([], true), 'c1', log, { maxSize: 10, maxFiles: 5 }), /not running/);
    assert.equal((await readFile(log, 'utf8')).length, 100);
  });
});
