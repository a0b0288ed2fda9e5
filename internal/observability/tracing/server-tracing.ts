/**
 * A server's tracing, started when --tracing-config-file is set (server.ts imports this module
 * only then): the tracer provider, the AsyncLocalStorage that carries the current trace, the
 * tracing filter and the etcd instrument.
 */
import { withFilterSpan, withTracing } from '../../filters/tracing.js';
import type { TracingOptions } from '../../server/options/tracing.js';
import type { Logger } from '../logging.js';
import { TracedAdmissionChain } from './admission.js';
import { traceStorage } from './context.js';
import { etcdTracing } from './etcd.js';
import type { ServerTracing } from './interface.js';
import { createTracerProvider, type ProviderTuning } from './provider.js';

/** The instrumentation scope of every span the server makes. */
const scopeName = 'k8s.io/apiserver';

/** Starts tracing as options configure it. */
export function startTracing(options: TracingOptions, log: Logger, tuning: ProviderTuning = {}): ServerTracing {
  const provider = createTracerProvider(options.configuration, log, tuning);
  const tracer = provider.getTracer(scopeName);
  traceStorage();
  log.info(`Tracing enabled: exporting to ${options.configuration.endpoint}, sampling ${options.configuration.samplingRatePerMillion} per million root spans`);
  let stopped: Promise<void> | undefined;
  return {
    requestScope: withTracing({ tracer }),
    spanFilter: withFilterSpan,
    admissionChain: (plugins, observer) => new TracedAdmissionChain(plugins, observer),
    etcd: etcdTracing(tracer),
    forceFlush: () => provider.forceFlush(),
    shutdown: () => (stopped ??= provider.shutdown()),
  };
}
