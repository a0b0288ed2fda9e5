/**
 * Restarting one API server under load (issue 12's fault): two servers share one etcd; a client
 * load of creates and reads runs against the second while the first stops gracefully and starts
 * again. The second server's clients see no error at all, and every create it acknowledged is
 * readable through the restarted first server with its content.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { httpsCall, testServerOptions, useServer } from '../support/server.js';

const cms = '/api/v1/namespaces/default/configmaps';

describe('one API server restarted under load', () => {
  const fx = useServer();
  let other: RunningServer;
  before(async () => {
    // The same --cert-dir, so both servers serve with the same CA.
    other = await startServer(testServerOptions(fx.etcd.endpoint, await freePort(), join(fx.dir, 'certs')), createLogger(0, true));
    await other.ready;
  });
  after(async () => {
    await other?.stop();
  });

  it("the other server's clients see no error, and every acknowledged write survives", async () => {
    const ca = other.certificate.ca ?? '';
    const acknowledged = new Map<string, string>();
    const errors: string[] = [];
    let stop = false;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const name = `load-${w}-${i}`;
        try {
          const created = await httpsCall(other.port, ca, 'POST', cms, { body: { metadata: { name }, data: { n: String(i) } } });
          if (created.status !== 201) {
            errors.push(`create ${name}: ${created.status} ${created.text}`);
            continue;
          }
          acknowledged.set(name, String(i));
          const read = await httpsCall(other.port, ca, 'GET', `${cms}/${name}`);
          if (read.status !== 200) errors.push(`get ${name}: ${read.status} ${read.text}`);
        } catch (err) {
          errors.push(`${name}: ${(err as Error).message}`);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    await new Promise((r) => setTimeout(r, 500));
    const beforeRestart = acknowledged.size;
    await fx.restart();
    await fx.server.ready;
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await load;
    assert.deepEqual(errors, []);
    assert.ok(acknowledged.size > beforeRestart, `the load went on during the restart (${beforeRestart} then ${acknowledged.size} creates)`);
    // Every acknowledged write, read through the restarted server.
    const list = await fx.request('GET', cms);
    assert.equal(list.status, 200);
    const stored = new Map<string, string>(list.json().items.map((o: { metadata: { name: string }; data?: { n?: string } }) => [o.metadata.name, o.data?.n ?? '']));
    for (const [name, n] of acknowledged) assert.equal(stored.get(name), n, `${name} as acknowledged`);
    console.log(`${acknowledged.size} creates acknowledged by the other server across the restart (${beforeRestart} before it), none lost, no errors`);
  });
});
