/**
 * The admission flags (kube's AdmissionOptions): --enable-admission-plugins,
 * --disable-admission-plugins and --admission-control-config-file. Unknown plugin names, a name in
 * both lists and an unreadable or invalid AdmissionConfiguration refuse to start with kube's
 * messages. The configuration of each plugin is read here (inline `configuration` or the file at
 * `path`, relative to the configuration file) and handed to the plugin's factory.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { allOrderedPlugins, defaultOnPlugins } from '../../admission/plugins/registry.js';
import { FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated admission options. */
export interface AdmissionOptions {
  /** The names given to --enable-admission-plugins. */
  readonly enable: readonly string[];
  /** The names given to --disable-admission-plugins. */
  readonly disable: readonly string[];
  /** --admission-control-config-file, when given. */
  readonly configFile?: string;
  /** Each configured plugin's configuration object, by plugin name. */
  readonly pluginConfig: ReadonlyMap<string, unknown>;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly admission?: AdmissionOptions;
  }
}

/** The defaults: kube's default-on plugins, no configuration. */
export const defaultAdmissionOptions: AdmissionOptions = { enable: [], disable: [], pluginConfig: new Map() };

const configurationKinds = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1']);

function parseDocument(text: string, file: string): unknown {
  try {
    return parseYaml(text);
  } catch (err) {
    throw new FlagError(`unable to read admission control configuration from "${file}" [${(err as Error).message}]`);
  }
}

/** Reads an AdmissionConfiguration file into the configuration object of each plugin it names. */
export function readAdmissionConfiguration(file: string): Map<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FlagError(`unable to read admission control configuration from "${file}" [${(err as Error).message}]`);
  }
  const doc = parseDocument(text, file) as Record<string, unknown> | null;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new FlagError(`unable to read admission control configuration from "${file}" [not an object]`);
  if (doc.kind !== 'AdmissionConfiguration' || typeof doc.apiVersion !== 'string' || !configurationKinds.has(doc.apiVersion)) {
    throw new FlagError(
      `unable to read admission control configuration from "${file}" [expected kind AdmissionConfiguration of apiserver.config.k8s.io/v1, got ${String(doc.apiVersion)}, Kind=${String(doc.kind)}]`,
    );
  }
  const out = new Map<string, unknown>();
  const plugins = doc.plugins ?? [];
  if (!Array.isArray(plugins)) throw new FlagError(`unable to read admission control configuration from "${file}" [plugins must be a list]`);
  for (const p of plugins as Record<string, unknown>[]) {
    const name = typeof p?.name === 'string' ? p.name : '';
    if (!name) throw new FlagError(`unable to read admission control configuration from "${file}" [a plugin entry has no name]`);
    if (p.configuration !== undefined && p.configuration !== null) {
      out.set(name, p.configuration);
    } else if (typeof p.path === 'string' && p.path !== '') {
      const path = isAbsolute(p.path) ? p.path : join(dirname(file), p.path);
      let body: string;
      try {
        body = readFileSync(path, 'utf8');
      } catch (err) {
        throw new FlagError(`couldn't open admission plugin configuration ${path}: ${(err as Error).message}`);
      }
      out.set(name, parseDocument(body, path));
    }
  }
  return out;
}

const known = new Set(allOrderedPlugins);

/** The admission flag group. */
export const admissionFlags: FlagGroup<'admission'> = {
  repeatable: ['enable-admission-plugins', 'disable-admission-plugins'],
  register(y) {
    y.option('enable-admission-plugins', {
      type: 'string',
      describe: `admission plugins that should be enabled in addition to default enabled ones (${[...defaultOnPlugins].join(', ')}). Comma-delimited list of admission plugins: ${[...allOrderedPlugins].sort().join(', ')}. The order of plugins in this flag does not matter.`,
    });
    y.option('disable-admission-plugins', {
      type: 'string',
      describe: `admission plugins that should be disabled although they are in the default enabled plugins list (${[...defaultOnPlugins].join(', ')}). Comma-delimited list of admission plugins: ${[...allOrderedPlugins].sort().join(', ')}. The order of plugins in this flag does not matter.`,
    });
    y.option('admission-control-config-file', { type: 'string', describe: 'File with admission control configuration.' });
  },
  validate(p) {
    const enable = stringSliceFlag('enable-admission-plugins', p['enable-admission-plugins']);
    const disable = stringSliceFlag('disable-admission-plugins', p['disable-admission-plugins']);
    const errors: string[] = [];
    for (const name of enable) if (!known.has(name)) errors.push(`enable-admission-plugins plugin "${name}" is unknown`);
    for (const name of disable) if (!known.has(name)) errors.push(`disable-admission-plugins plugin "${name}" is unknown`);
    const overlap = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
    if (overlap.length > 0) errors.push(`[${overlap.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
    if (errors.length > 0) throw new FlagError(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    const file = typeof p['admission-control-config-file'] === 'string' && p['admission-control-config-file'] !== '' ? p['admission-control-config-file'] : undefined;
    const pluginConfig = file ? readAdmissionConfiguration(file) : new Map<string, unknown>();
    return { admission: { enable, disable, pluginConfig, ...(file ? { configFile: file } : {}) } };
  },
};
