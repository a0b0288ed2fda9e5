/**
 * capstan-apiserver: parses kube-apiserver's flags and runs the API server until SIGTERM or
 * SIGINT, then shuts down gracefully (exit code 0 once drained); a second signal exits at once
 * with code 1, as kube-apiserver's signal handler does. The log is buffered (--log-flush-frequency): it is flushed
 * before every exit, fatal ones included, so the last lines are never lost.
 */
import { createLogger, type KlogLogger } from '../../internal/observability/logging.js';
import { parseFlags } from '../../internal/server/options/flags.js';
import { defaultLoggingOptions } from '../../internal/server/options/logging.js';
import { startServer } from '../../internal/server/server.js';
import { defaultGitVersion } from '../../internal/version/info.js';

let log: KlogLogger | undefined;

async function main(): Promise<number> {
  const parsed = parseFlags(process.argv.slice(2), `Kubernetes ${defaultGitVersion}`);
  if (parsed.kind === 'exit') {
    if (parsed.stdout) process.stdout.write(parsed.stdout);
    if (parsed.stderr) process.stderr.write(parsed.stderr);
    return parsed.code;
  }
  const logging = parsed.options.logging ?? defaultLoggingOptions;
  const logger = createLogger({
    verbosity: logging.verbosity,
    vmodule: logging.vmodule,
    format: logging.format,
    flushFrequencyMs: logging.flushFrequencyMs,
    ...(logging.splitStream ? { splitStream: logging.splitStream } : {}),
  });
  log = logger;
  process.on('unhandledRejection', (reason) => {
    logger.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
    logger.flush();
  });
  process.on('uncaughtException', (err) => {
    logger.error(`uncaught exception: ${err.stack ?? err.message}`);
    logger.flush();
  });
  // Signals that arrive while the server is still starting count too.
  let received = 0;
  let onFirst: (() => void) | undefined;
  const first = new Promise<void>((resolve) => (onFirst = resolve));
  const onSignal = (sig: NodeJS.Signals): void => {
    received++;
    if (received > 1) {
      logger.info(`received ${sig} again, exiting at once`);
      logger.flush();
      process.exit(1);
    }
    logger.info(`received ${sig}, shutting down gracefully`);
    onFirst?.();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  const server = await startServer(parsed.options, logger);
  await first;
  await server.stop();
  return 0;
}

main().then(
  (code) => {
    log?.flush();
    process.exit(code);
  },
  (err: unknown) => {
    log?.flush();
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
