import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { startOtlpReceiver } from '../../../test/support/otlp-receiver.js';
import { apiServerID } from '../../controllers/apiserver-identity/identity.js';
import { createTracerProvider, exporterUrl } from './provider.js';

const log = { info() {}, warn() {}, error() {}, v() {} };

describe('tracer provider', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-otlp-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('dials the endpoint forms kube accepts', () => {
    assert.equal(exporterUrl('localhost:4317'), 'http://localhost:4317');
    assert.equal(exporterUrl('dns:///collector.monitoring:4317'), 'http://collector.monitoring:4317');
    assert.equal(exporterUrl('dns://8.8.8.8/collector:4317'), 'http://collector:4317');
    assert.equal(exporterUrl('unix:///run/otel.sock'), 'unix:///run/otel.sock');
    assert.equal(exporterUrl('unix:/run/otel.sock'), 'unix:///run/otel.sock');
    assert.equal(exporterUrl('unix:otel.sock'), `unix://${resolve('otel.sock')}`);
    assert.equal(exporterUrl('unix-abstract://otel'), 'unix://localhost/\0otel');
  });

  for (const [what, bind, endpoint] of [
    ['loopback TCP', undefined, undefined],
    ['a Unix socket', `unix://${join(dir, 'otlp.sock')}`, `unix://${join(dir, 'otlp.sock')}`],
    ['an abstract Unix socket', `unix://localhost/\0capstan-otlp-${process.pid}`, `unix-abstract://capstan-otlp-${process.pid}`],
  ] as const) {
    it(`exports batches over OTLP gRPC to ${what}, under the resource kube sets`, async () => {
      const receiver = await startOtlpReceiver(bind);
      const provider = createTracerProvider({ endpoint: endpoint ?? receiver.endpoint, samplingRatePerMillion: 1_000_000 }, log);
      try {
        provider.getTracer('k8s.io/apiserver').startSpan('probe').end();
        await provider.forceFlush();
        const [span] = await receiver.waitFor((s) => s.length > 0);
        assert.equal(span?.name, 'probe');
        assert.equal(span?.scope, 'k8s.io/apiserver');
        assert.deepEqual(Object.keys(span?.resource ?? {}).sort(), ['host.name', 'service.instance.id', 'service.name']);
        assert.equal(span?.resource['service.name'], 'apiserver');
        // The same identity the APIServerIdentity Lease is named after (kube's APIServerID is both).
        assert.equal(span?.resource['service.instance.id'], apiServerID(hostname()));
      } finally {
        await provider.shutdown();
        await receiver.stop();
      }
    });
  }
});
