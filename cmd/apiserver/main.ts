/**
 * capstan-apiserver: parses kube-apiserver's flags and runs the API server until SIGTERM or
 * SIGINT, then shuts down gracefully.
 */
import { kubernetesVersion } from '../../api/gen/resources.js';
import { createLogger } from '../../internal/observability/logging.js';
import { parseFlags } from '../../internal/server/options/flags.js';
import { startServer } from '../../internal/server/server.js';

async function main(): Promise<number> {
  const parsed = parseFlags(process.argv.slice(2), `Kubernetes v${kubernetesVersion}.0+capstan`);
  if (parsed.kind === 'exit') {
    if (parsed.stdout) process.stdout.write(parsed.stdout);
    if (parsed.stderr) process.stderr.write(parsed.stderr);
    return parsed.code;
  }
  const log = createLogger(parsed.options.verbosity);
  process.on('unhandledRejection', (reason) => {
    log.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  });
  process.on('uncaughtException', (err) => {
    log.error(`uncaught exception: ${err.stack ?? err.message}`);
  });
  const server = await startServer(parsed.options, log);
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string): void => {
      log.info(`received ${sig}`);
      resolve();
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  });
  await server.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
