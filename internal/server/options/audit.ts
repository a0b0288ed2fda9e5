/**
 * The audit flags (kube's AuditOptions): --audit-policy-file, the log backend's --audit-log-*
 * and the webhook backend's --audit-webhook-*, each backend with its mode, batch and truncation
 * settings (--audit-<backend>-mode, -batch-*, -truncate-*) and event version. Names, defaults and
 * help texts are kube-apiserver's; validated as kube validates them: a backend's flags only when
 * that backend is on (--audit-log-path, --audit-webhook-config-file), batch settings only in batch
 * mode, every problem reported (kube's aggregate "[a, b]"). internal/audit/build.ts builds the
 * policy and backends from them.
 */
import type { AuditMode, BatchConfig, TruncateConfig } from '../../audit/interface.js';
import { logFormats, type LogFormat } from '../../audit/log/backend.js';
import { aggregateMessage } from './authorization.js';
import { boolFlag, durationFlag, FlagError, intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** The modes a backend accepts, in kube's order. */
export const auditModes: readonly AuditMode[] = ['batch', 'blocking', 'blocking-strict'];

/** The event versions kube 1.33 writes (audit.k8s.io/v1alpha1 and v1beta1 were removed in 1.24). */
export const auditVersions: readonly string[] = ['audit.k8s.io/v1'];

/** What both backends have: mode, batching, truncation, event version. */
export interface AuditBackendOptions {
  /** --audit-<backend>-mode. */
  readonly mode: AuditMode;
  /** --audit-<backend>-batch-* (used in batch mode only). */
  readonly batch: BatchConfig;
  /** --audit-<backend>-truncate-enabled. */
  readonly truncateEnabled: boolean;
  /** --audit-<backend>-truncate-max-batch-size, -max-event-size. */
  readonly truncate: TruncateConfig;
  /** --audit-<backend>-version. */
  readonly version: string;
}

/** The log backend's options. */
export interface AuditLogOptions extends AuditBackendOptions {
  /** --audit-log-path: absent, no log backend; "-" is standard output. */
  readonly path?: string;
  readonly format: LogFormat;
  /** --audit-log-maxage (days), --audit-log-maxbackup, --audit-log-maxsize (MB; 0 is lumberjack's 100). */
  readonly maxAge: number;
  readonly maxBackups: number;
  readonly maxSize: number;
  /** --audit-log-compress: gzip rotated files. */
  readonly compress: boolean;
}

/** The webhook backend's options. */
export interface AuditWebhookOptions extends AuditBackendOptions {
  /** --audit-webhook-config-file: absent, no webhook backend. */
  readonly configFile?: string;
  /** --audit-webhook-initial-backoff in ms. */
  readonly initialBackoffMs: number;
}

/** Validated audit options. */
export interface AuditOptions {
  /** --audit-policy-file: absent, nothing is audited. */
  readonly policyFile?: string;
  readonly log: AuditLogOptions;
  readonly webhook: AuditWebhookOptions;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly audit?: AuditOptions;
  }
}

const defaultTruncate: TruncateConfig = { maxBatchSize: 10 * 1024 * 1024, maxEventSize: 100 * 1024 };

/** kube's defaults: the log blocking, unbatched; the webhook batched (400 events, 30s, 10 QPS, burst 15). */
export const defaultAuditOptions: AuditOptions = {
  log: {
    format: 'json',
    maxAge: 0,
    maxBackups: 0,
    maxSize: 0,
    compress: false,
    mode: 'blocking',
    batch: { bufferSize: 10000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false },
    truncateEnabled: false,
    truncate: defaultTruncate,
    version: 'audit.k8s.io/v1',
  },
  webhook: {
    initialBackoffMs: 10_000,
    mode: 'batch',
    batch: { bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true },
    truncateEnabled: false,
    truncate: defaultTruncate,
    version: 'audit.k8s.io/v1',
  },
};

const goFloat = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A pflag float32 value (strconv.ParseFloat's syntax). */
function float32Flag(name: string, value: unknown): number {
  const s = String(value);
  if (!goFloat.test(s)) throw new FlagError(`invalid argument ${JSON.stringify(s)} for "--${name}" flag: strconv.ParseFloat: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Math.fround(Number(s));
}

function registerBackend(y: Parameters<FlagGroup['register']>[0], plugin: 'log' | 'webhook', d: AuditBackendOptions): void {
  y.option(`audit-${plugin}-mode`, {
    type: 'string',
    default: d.mode,
    describe: `Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are ${auditModes.join(',')}.`,
  });
  y.option(`audit-${plugin}-batch-buffer-size`, { type: 'string', default: String(d.batch.bufferSize), describe: 'The size of the buffer to store events before batching and writing. Only used in batch mode.' });
  y.option(`audit-${plugin}-batch-max-size`, { type: 'string', default: String(d.batch.maxBatchSize), describe: 'The maximum size of a batch. Only used in batch mode.' });
  y.option(`audit-${plugin}-batch-max-wait`, {
    type: 'string',
    ...(d.batch.maxBatchWaitMs > 0 ? { default: `${d.batch.maxBatchWaitMs / 1000}s` } : {}),
    describe: "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.",
  });
  y.option(`audit-${plugin}-batch-throttle-enable`, {
    type: 'string',
    ...(d.batch.throttleEnable ? { defaultDescription: 'true' } : {}),
    describe: 'Whether batching throttling is enabled. Only used in batch mode.',
  });
  y.option(`audit-${plugin}-batch-throttle-qps`, {
    type: 'string',
    ...(d.batch.throttleQPS > 0 ? { default: String(d.batch.throttleQPS) } : {}),
    describe: 'Maximum average number of batches per second. Only used in batch mode.',
  });
  y.option(`audit-${plugin}-batch-throttle-burst`, {
    type: 'string',
    ...(d.batch.throttleBurst > 0 ? { default: String(d.batch.throttleBurst) } : {}),
    describe: 'Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.',
  });
  y.option(`audit-${plugin}-truncate-enabled`, { type: 'string', describe: 'Whether event and batch truncating is enabled.' });
  y.option(`audit-${plugin}-truncate-max-batch-size`, {
    type: 'string',
    default: String(d.truncate.maxBatchSize),
    describe:
      'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.',
  });
  y.option(`audit-${plugin}-truncate-max-event-size`, {
    type: 'string',
    default: String(d.truncate.maxEventSize),
    describe:
      "Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn't reduce the size enough, event is discarded.",
  });
  y.option(`audit-${plugin}-version`, {
    type: 'string',
    default: d.version,
    describe: `API group and version used for serializing audit events written to ${plugin}.`,
  });
}

function optionalString(v: unknown): string | undefined {
  return v === undefined || v === null || String(v) === '' ? undefined : String(v);
}

/** kube's validateGroupVersionString (schema.ParseGroupVersion, then the known versions). */
function groupVersionError(gv: string): string | undefined {
  if ((gv.match(/\//g) ?? []).length > 1) return `unexpected GroupVersion string: ${gv}`;
  if (auditVersions.includes(gv)) return undefined;
  return `invalid group version, allowed versions are [${auditVersions.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** Parses one backend's mode, batch, truncate and version flags; errors are collected when enabled. */
function parseBackend(p: Record<string, unknown>, plugin: 'log' | 'webhook', d: AuditBackendOptions, enabled: boolean, errors: string[]): AuditBackendOptions {
  const f = (name: string): unknown => p[`audit-${plugin}-${name}`];
  const mode = String(f('mode') ?? d.mode) as AuditMode;
  const batch: BatchConfig = {
    bufferSize: intFlag(`audit-${plugin}-batch-buffer-size`, f('batch-buffer-size') ?? d.batch.bufferSize),
    maxBatchSize: intFlag(`audit-${plugin}-batch-max-size`, f('batch-max-size') ?? d.batch.maxBatchSize),
    maxBatchWaitMs: f('batch-max-wait') === undefined ? d.batch.maxBatchWaitMs : durationFlag(`audit-${plugin}-batch-max-wait`, f('batch-max-wait')),
    throttleEnable: boolFlag(`audit-${plugin}-batch-throttle-enable`, f('batch-throttle-enable'), d.batch.throttleEnable),
    throttleQPS: f('batch-throttle-qps') === undefined ? d.batch.throttleQPS : float32Flag(`audit-${plugin}-batch-throttle-qps`, f('batch-throttle-qps')),
    throttleBurst: f('batch-throttle-burst') === undefined ? d.batch.throttleBurst : intFlag(`audit-${plugin}-batch-throttle-burst`, f('batch-throttle-burst')),
    asyncDelegate: d.batch.asyncDelegate === true,
  };
  const truncateEnabled = boolFlag(`audit-${plugin}-truncate-enabled`, f('truncate-enabled'), false);
  const truncate: TruncateConfig = {
    maxBatchSize: intFlag(`audit-${plugin}-truncate-max-batch-size`, f('truncate-max-batch-size') ?? d.truncate.maxBatchSize),
    maxEventSize: intFlag(`audit-${plugin}-truncate-max-event-size`, f('truncate-max-event-size') ?? d.truncate.maxEventSize),
  };
  const version = String(f('version') ?? d.version);
  if (enabled) {
    // kube's validateBackendBatchOptions reports its first problem only.
    if (!auditModes.includes(mode)) errors.push(`invalid audit ${plugin} mode ${mode}, allowed modes are ${JSON.stringify(auditModes.join(','))}`);
    else if (mode === 'batch') {
      if (batch.bufferSize <= 0) errors.push(`invalid audit batch ${plugin} buffer size ${batch.bufferSize}, must be a positive number`);
      else if (batch.maxBatchSize <= 0) errors.push(`invalid audit batch ${plugin} max batch size ${batch.maxBatchSize}, must be a positive number`);
      else if (batch.throttleEnable && batch.throttleQPS <= 0) errors.push(`invalid audit batch ${plugin} throttle QPS ${batch.throttleQPS}, must be a positive number`);
      else if (batch.throttleEnable && batch.throttleBurst <= 0) errors.push(`invalid audit batch ${plugin} throttle burst ${batch.throttleBurst}, must be a positive number`);
    }
    if (truncate.maxEventSize <= 0) errors.push(`invalid audit truncate ${plugin} max event size ${truncate.maxEventSize}, must be a positive number`);
    else if (truncate.maxBatchSize < truncate.maxEventSize) {
      errors.push(`invalid audit truncate ${plugin} max batch size ${truncate.maxBatchSize}, must be greater than max event size (${truncate.maxEventSize})`);
    }
    const gvError = groupVersionError(version);
    if (gvError) errors.push(gvError);
  }
  return { mode, batch, truncateEnabled, truncate, version };
}

/** The audit flag group. */
export const auditFlags: FlagGroup<'audit'> = {
  register(y) {
    const d = defaultAuditOptions;
    y.option('audit-policy-file', { type: 'string', describe: 'Path to the file that defines the audit policy configuration.' });
    y.option('audit-log-path', { type: 'string', describe: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out." });
    y.option('audit-log-maxage', { type: 'string', describe: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.' });
    y.option('audit-log-maxbackup', {
      type: 'string',
      describe: "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    });
    y.option('audit-log-maxsize', { type: 'string', describe: 'The maximum size in megabytes of the audit log file before it gets rotated.' });
    y.option('audit-log-format', {
      type: 'string',
      default: d.log.format,
      describe: `Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are ${logFormats.join(',')}.`,
    });
    y.option('audit-log-compress', { type: 'string', describe: 'If set, the rotated log files will be compressed using gzip.' });
    registerBackend(y, 'log', d.log);
    y.option('audit-webhook-config-file', { type: 'string', describe: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.' });
    y.option('audit-webhook-initial-backoff', { type: 'string', default: '10s', describe: 'The amount of time to wait before retrying the first failed request.' });
    registerBackend(y, 'webhook', d.webhook);
  },
  validate(p) {
    const d = defaultAuditOptions;
    const errors: string[] = [];
    const policyFile = optionalString(p['audit-policy-file']);
    const path = optionalString(p['audit-log-path']);
    const configFile = optionalString(p['audit-webhook-config-file']);
    const format = String(p['audit-log-format'] ?? d.log.format);
    const maxAge = p['audit-log-maxage'] === undefined ? 0 : intFlag('audit-log-maxage', p['audit-log-maxage']);
    const maxBackups = p['audit-log-maxbackup'] === undefined ? 0 : intFlag('audit-log-maxbackup', p['audit-log-maxbackup']);
    const maxSize = p['audit-log-maxsize'] === undefined ? 0 : intFlag('audit-log-maxsize', p['audit-log-maxsize']);
    const compress = boolFlag('audit-log-compress', p['audit-log-compress'], false);
    const initialBackoffMs = durationFlag('audit-webhook-initial-backoff', p['audit-webhook-initial-backoff'] ?? '10s');
    const logBackend = parseBackend(p, 'log', d.log, path !== undefined, errors);
    if (path !== undefined) {
      if (!(logFormats as readonly string[]).includes(format)) errors.push(`invalid audit log format ${format}, allowed formats are ${JSON.stringify(logFormats.join(','))}`);
      if (maxAge < 0) errors.push(`--audit-log-maxage ${maxAge} can't be a negative number`);
      if (maxBackups < 0) errors.push(`--audit-log-maxbackup ${maxBackups} can't be a negative number`);
      if (maxSize < 0) errors.push(`--audit-log-maxsize ${maxSize} can't be a negative number`);
    }
    const webhookBackend = parseBackend(p, 'webhook', d.webhook, configFile !== undefined, errors);
    if (errors.length > 0) throw new FlagError(aggregateMessage(errors));
    return {
      audit: {
        ...(policyFile ? { policyFile } : {}),
        log: { ...logBackend, ...(path ? { path } : {}), format: format as LogFormat, maxAge, maxBackups, maxSize, compress },
        webhook: { ...webhookBackend, ...(configFile ? { configFile } : {}), initialBackoffMs },
      },
    };
  },
};
