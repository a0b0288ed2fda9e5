/**
 * capstan-nodeagent: kubelet 1.33's command line (flags, --config, --config-dir) resolved into the
 * node agent's configuration, then the agent runs until SIGTERM or SIGINT and stops gracefully,
 * leaving its pods running. A configuration or start failure prints kubelet's message and exits 1.
 */
import { runNodeAgent } from '../../internal/nodeagent/agent.js';
import { parseNodeAgentCommand } from '../../internal/nodeagent/options/resolve.js';
import { createLogger, type KlogLogger } from '../../internal/observability/logging.js';

let log: KlogLogger | undefined;

async function main(): Promise<number> {
  const command = await parseNodeAgentCommand(process.argv.slice(2));
  if (command.kind === 'exit') {
    if (command.stdout) process.stdout.write(command.stdout);
    if (command.stderr) process.stderr.write(command.stderr);
    return command.code;
  }
  const logger = createLogger({ verbosity: command.verbosity, flushFrequencyMs: 1000 });
  log = logger;
  process.on('unhandledRejection', (reason) => {
    logger.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
    logger.flush();
  });
  return await runNodeAgent(command.config, logger);
}

main().then(
  (code) => {
    log?.flush();
    process.exit(code);
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    if (log) {
      log.errorS(message, 'command failed');
      log.flush();
    } else {
      process.stderr.write(`Error: ${message}\n`);
    }
    process.exit(1);
  },
);
