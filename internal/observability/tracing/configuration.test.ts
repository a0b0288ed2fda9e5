import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { groupOptionsFromFlags } from '../../../test/support/server.js';
import { decodeTracingConfiguration, loadTracingConfiguration, validateTracingConfiguration } from './configuration.js';

describe('TracingConfiguration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-tracing-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('decodes v1beta1 and v1alpha1 with kube defaults (localhost:4317, rate 0)', () => {
    assert.deepEqual(loadTracingConfiguration(file('a.yaml', 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\n')), {
      endpoint: 'localhost:4317',
      samplingRatePerMillion: 0,
    });
    assert.deepEqual(
      loadTracingConfiguration(file('b.json', '{"apiVersion":"apiserver.config.k8s.io/v1alpha1","kind":"TracingConfiguration","endpoint":"unix:///run/otel.sock","samplingRatePerMillion":100}')),
      { endpoint: 'unix:///run/otel.sock', samplingRatePerMillion: 100 },
    );
  });

  it('refuses versions and kinds 1.33 does not register, unknown fields and wrong types, as kube decodes', () => {
    assert.throws(() => decodeTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n'), {
      message: 'no kind "TracingConfiguration" is registered for version "apiserver.config.k8s.io/v1"',
    });
    assert.throws(() => decodeTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\n'), {
      message: 'no kind "EgressSelectorConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1"',
    });
    assert.throws(() => decodeTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1beta1\n'), /^Error: Object 'Kind' is missing in/);
    assert.throws(() => decodeTracingConfiguration(''), { message: "Object 'Kind' is missing in 'null'" });
    assert.throws(() => decodeTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nurl: x\n'), {
      message: 'strict decoding error: unknown field "url"',
    });
    assert.throws(() => decodeTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nsamplingRatePerMillion: "10"\n'), {
      message: 'json: cannot unmarshal string into Go struct field TracingConfiguration.samplingRatePerMillion of type int32',
    });
    assert.throws(() => decodeTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: 4317\n'), {
      message: 'json: cannot unmarshal number 4317 into Go struct field TracingConfiguration.endpoint of type string',
    });
  });

  it('validates with kube messages', () => {
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'localhost:4317', samplingRatePerMillion: 1_000_000 }), []);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'dns:///collector:4317', samplingRatePerMillion: 0 }), []);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'unix-abstract://otel', samplingRatePerMillion: 0 }), []);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'unix:/run/otel.sock', samplingRatePerMillion: 0 }), []);
    // Without "//" kube reads it as a DNS name whose port is "otel", and refuses it.
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'unix-abstract:otel', samplingRatePerMillion: 0 }), [
      'endpoint: Invalid value: "dns://unix-abstract:otel": parse "dns://unix-abstract:otel": invalid port ":otel" after host',
    ]);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'localhost:4317', samplingRatePerMillion: -1 }), ['samplingRatePerMillion: Invalid value: -1: sampling rate must be positive']);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'localhost:4317', samplingRatePerMillion: 1_000_001 }), [
      'samplingRatePerMillion: Invalid value: 1000001: sampling rate per million must be less than or equal to one million',
    ]);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'http://localhost:4317', samplingRatePerMillion: 0 }), [
      'endpoint: Invalid value: "http://localhost:4317": unsupported scheme: http.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md',
    ]);
    assert.deepEqual(validateTracingConfiguration({ endpoint: 'local host:4317', samplingRatePerMillion: 0 }), [
      'endpoint: Invalid value: "dns://local host:4317": parse "dns://local host:4317": invalid character " " in host name',
    ]);
  });

  it('--tracing-config-file: a missing file, and an invalid one, stop the server with kube messages', () => {
    assert.throws(() => groupOptionsFromFlags([`--tracing-config-file=${join(dir, 'nope.yaml')}`]), new RegExp(`tracing-config-file ${join(dir, 'nope.yaml')} does not exist`));
    const two = file('two.yaml', 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: http://x\nsamplingRatePerMillion: -5\n');
    assert.throws(
      () => groupOptionsFromFlags([`--tracing-config-file=${two}`]),
      /failed to validate tracing configuration: \[samplingRatePerMillion: Invalid value: -5: sampling rate must be positive, endpoint: Invalid value: "http:\/\/x": unsupported scheme: http\./,
    );
    const bad = file('bad.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n');
    assert.throws(() => groupOptionsFromFlags([`--tracing-config-file=${bad}`]), /failed to read tracing config: unable to decode tracing configuration data: no kind "TracingConfiguration"/);
    const good = file('good.yaml', 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nsamplingRatePerMillion: 250\n');
    assert.deepEqual(groupOptionsFromFlags([`--tracing-config-file=${good}`]).tracing, {
      configFile: good,
      configuration: { endpoint: 'localhost:4317', samplingRatePerMillion: 250 },
    });
    assert.equal(groupOptionsFromFlags([]).tracing, undefined);
  });
});
