/**
 * Logging: winston writing klog-like lines to stderr. -v sets how chatty it is: errors and
 * warnings always, info at -v=0 and above, request-level detail at -v=4 and above.
 */
import winston from 'winston';

/** The logger every component gets. Never throws. */
export interface Logger {
  error(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  /** Logs only when -v is at least level. */
  v(level: number, message: string, meta?: Record<string, unknown>): void;
}

/** Creates the process logger for verbosity v. */
export function createLogger(verbosity: number, silent = false): Logger {
  const w = winston.createLogger({
    level: verbosity >= 4 ? 'debug' : 'info',
    silent,
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn', 'info', 'debug'] })],
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.printf(({ level, message, timestamp, ...meta }) => {
        const extra = Object.keys(meta).length > 0 ? ` ${JSON.stringify(meta)}` : '';
        return `${String(level).charAt(0).toUpperCase()} ${String(timestamp)} ${String(message)}${extra}`;
      }),
    ),
  });
  return {
    error: (m, meta) => w.error(m, meta),
    warn: (m, meta) => w.warn(m, meta),
    info: (m, meta) => w.info(m, meta),
    v: (level, m, meta) => {
      if (verbosity >= level) w.log(level >= 4 ? 'debug' : 'info', m, meta);
    },
  };
}
