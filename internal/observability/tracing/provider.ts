/**
 * The tracer provider kube-apiserver builds from its TracingConfiguration (component-base's
 * tracing.NewProvider): spans sampled ParentBased on TraceIDRatioBased(samplingRatePerMillion/1e6)
 * (never, for roots, at 0), batched and exported with OTLP over insecure gRPC to the endpoint,
 * under the resource service.name "apiserver", host.name and service.instance.id (the API
 * server's identity: the name of its APIServerIdentity Lease, as kube's APIServerID is both).
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { apiServerID } from '../../controllers/apiserver-identity/identity.js';
import type { Logger } from '../logging.js';
import type { TracingConfiguration } from './interface.js';

/**
 * The OTLP exporter's URL for a validated endpoint: "host:port", "dns://[authority]/host:port",
 * "unix:path", "unix:///path" or "unix-abstract://name".
 */
export function exporterUrl(endpoint: string): string {
  if (endpoint.startsWith('unix-abstract:')) {
    // grpc-js dials a Unix path as given; Linux's abstract namespace is a path starting with NUL.
    return `unix://localhost/\0${endpoint.slice('unix-abstract:'.length).replace(/^\/+/, '')}`;
  }
  if (endpoint.startsWith('unix:')) {
    const path = endpoint.slice('unix:'.length).replace(/^\/\/[^/]*/, '');
    return `unix://${resolve(path)}`;
  }
  if (endpoint.startsWith('dns:')) {
    const rest = endpoint.slice('dns:'.length);
    return `http://${rest.startsWith('//') ? rest.slice(rest.indexOf('/', 2) + 1) : rest}`;
  }
  return `http://${endpoint}`;
}

/** Logs export failures once until an export succeeds again (kube logs OpenTelemetry's errors). */
class LoggingExporter implements SpanExporter {
  private failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly log: Logger,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.failing = false;
      else if (!this.failing) {
        this.failing = true;
        this.log.warn(`traces export: ${result.error?.message ?? 'failed'}`);
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** How the provider exports, for unit tests. */
export interface ProviderTuning {
  /** Replaces the OTLP exporter and batching. */
  readonly spanProcessor?: SpanProcessor;
}

/** Builds kube's tracer provider for config. */
export function createTracerProvider(config: TracingConfiguration, log: Logger, tuning: ProviderTuning = {}): BasicTracerProvider {
  const rate = config.samplingRatePerMillion;
  const root = rate > 0 ? new TraceIdRatioBasedSampler(rate / 1_000_000) : new AlwaysOffSampler();
  // The batching follows OTel's defaults and OTEL_BSP_* environment variables (as kube's Go SDK
  // does); the exporter also reads OTEL_EXPORTER_OTLP_HEADERS and the like.
  const processor =
    tuning.spanProcessor ??
    new BatchSpanProcessor(new LoggingExporter(new OTLPTraceExporter({ url: exporterUrl(config.endpoint), credentials: credentials.createInsecure() }), log));
  return new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root }),
    spanProcessors: [processor],
    resource: resourceFromAttributes({ 'service.name': 'apiserver', 'host.name': hostname(), 'service.instance.id': apiServerID(hostname()) }),
  });
}
