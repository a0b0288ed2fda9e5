/**
 * --tracing-config-file (kube's TracingOptions; APIServerTracing is beta and on by default in
 * 1.33, and Capstan has no feature gates to turn it off): a TracingConfiguration file that turns
 * request tracing on. The file must exist and is read and validated here, with kube's messages,
 * so that a bad one stops the server before anything starts. Without it nothing is traced and
 * the request path carries no tracing state at all.
 */
import { statSync } from 'node:fs';
import { loadTracingConfiguration } from '../../observability/tracing/configuration.js';
import type { TracingConfiguration } from '../../observability/tracing/interface.js';
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated tracing options (present only when --tracing-config-file is given). */
export interface TracingOptions {
  readonly configFile: string;
  readonly configuration: TracingConfiguration;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly tracing?: TracingOptions;
  }
}

/** The --tracing-config-file flag group. */
export const tracingFlags: FlagGroup<'tracing'> = {
  register(y) {
    y.option('tracing-config-file', { type: 'string', describe: 'File with apiserver tracing configuration.' });
  },
  validate(p) {
    const file = p['tracing-config-file'];
    if (typeof file !== 'string' || file === '') return {};
    try {
      statSync(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new FlagError(`tracing-config-file ${file} does not exist`);
      throw new FlagError(`error checking if tracing-config-file ${file} exists: ${(err as Error).message}`);
    }
    try {
      return { tracing: { configFile: file, configuration: loadTracingConfiguration(file) } };
    } catch (err) {
      throw new FlagError((err as Error).message);
    }
  },
};
