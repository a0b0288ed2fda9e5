/**
 * capstan-apiserver: parses kube-apiserver's flags and runs the API server until SIGTERM or
 * SIGINT, then shuts down gracefully. The log is buffered (--log-flush-frequency): it is flushed
 * before every exit, fatal ones included, so the last lines are never lost.
 */
import { kubernetesVersion } from '../../api/gen/resources.js';
import { createLogger, type KlogLogger } from '../../internal/observability/logging.js';
import { parseFlags } from '../../internal/server/options/flags.js';
import { defaultLoggingOptions } from '../../internal/server/options/logging.js';
import { startServer } from '../../internal/server/server.js';

let log: KlogLogger | undefined;

async function main(): Promise<number> {
  const parsed = parseFlags(process.argv.slice(2), `Kubernetes v${kubernetesVersion}.0+capstan`);
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
  const server = await startServer(parsed.options, logger);
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string): void => {
      logger.info(`received ${sig}`);
      resolve();
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  });
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
