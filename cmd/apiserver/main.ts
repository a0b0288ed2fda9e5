/**
 * capstan-apiserver: parses kube-apiserver's flags and runs the API server until SIGTERM or
 * SIGINT, then shuts down gracefully (exit code 0 once drained); a second signal exits at once
 * with code 1, as kube-apiserver's signal handler does.
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
  // Signals that arrive while the server is still starting count too.
  let received = 0;
  let onFirst: (() => void) | undefined;
  const first = new Promise<void>((resolve) => (onFirst = resolve));
  const onSignal = (sig: NodeJS.Signals): void => {
    received++;
    if (received > 1) {
      log.info(`received ${sig} again, exiting at once`);
      process.exit(1);
    }
    log.info(`received ${sig}, shutting down gracefully`);
    onFirst?.();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  const server = await startServer(parsed.options, log);
  await first;
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
