/**
 * The node agent's configuration from its command line, merged as kubelet merges it: kubelet's
 * legacy flag defaults, replaced by the --config file's content over the v1beta1 defaults when one
 * is given, then --config-dir drop-ins over that, then the flags over all (flags always win).
 * Then kubelet's validation. Nothing given is ignored: what cannot be honoured is refused.
 */
import { isIP } from 'node:net';
import { buildVersionInfo, defaultGitVersion, rawVersionText } from '../../version/info.js';
import type { NodeAgentConfig } from '../interface.js';
import { checkKind, ConfigFieldError, configFields, nestedFields, type Draft } from './config-fields.js';
import { loadConfigFile, mergeDropIns, refuseUnsupportedFields, type ConfigDoc } from './config-file.js';
import { defaultNodeAgentConfig, legacyFlagDefaults } from './defaults.js';
import { evictionThresholds } from './eviction.js';
import { flagNamed } from './flag-table.js';
import { checkNodeLabels } from './node-labels.js';
import { flagConfigDoc, flagValue, FlagError, tokenizeFlags, type FlagValues } from './parse-flags.js';
import { usageText } from './usage.js';
import { validateNodeAgentConfig } from './validate.js';

/** What the command line asks for: run with a configuration, or print and exit. */
export type NodeAgentCommand =
  | { readonly kind: 'run'; readonly config: NodeAgentConfig; readonly verbosity: number }
  | { readonly kind: 'exit'; readonly code: number; readonly stdout?: string; readonly stderr?: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Applies a KubeletConfiguration document's honoured fields to draft. */
export function applyConfigDoc(draft: Draft, doc: ConfigDoc, zeroDefaults: boolean, defaults: NodeAgentConfig): void {
  const leaf = (path: string, value: unknown): void => {
    const spec = path.includes('.') ? nestedFields[path] : configFields[path];
    if (!spec || value === null) return;
    checkKind(spec.kind, value, path);
    spec.apply(draft, value, zeroDefaults, defaults);
  };
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if ((k === 'authentication' || k === 'authorization' || prefix) && isObject(v) && !nestedFields[path]) walk(v, path);
      else leaf(path, v);
    }
  };
  walk(doc, '');
}

function one(values: FlagValues, name: string): unknown {
  const list = values.get(name);
  const def = flagNamed(name);
  return list && def ? flagValue(def, list) : undefined;
}

function nodeIPs(text: string | undefined): string[] {
  if (!text) return [];
  const ips = text.split(',').map((s) => s.trim());
  for (const ip of ips) if (isIP(ip) === 0) throw new FlagError(`failed to parse node IP: invalid node IP: ${JSON.stringify(ip)}`);
  if (ips.length > 2 || (ips.length === 2 && isIP(ips[0] as string) === isIP(ips[1] as string))) throw new FlagError(`failed to parse node IP: dual-stack --node-ip ${JSON.stringify(text)} must contain one IPv4 and one IPv6 address`);
  return ips;
}

/** Resolves argv (without node and script) into a command. Reads the config files it names. */
export async function parseNodeAgentCommand(argv: readonly string[]): Promise<NodeAgentCommand> {
  let values: FlagValues;
  try {
    values = tokenizeFlags(argv);
  } catch (err) {
    return { kind: 'exit', code: 1, stderr: `Error: failed to parse kubelet flag: ${(err as Error).message}\nRun 'capstan-nodeagent --help' for usage.\n` };
  }
  if (values.has('help') && one(values, 'help') === true) return { kind: 'exit', code: 0, stdout: usageText() };
  const version = values.get('version');
  if (version) {
    const v = version[version.length - 1] as string;
    if (v === 'raw') return { kind: 'exit', code: 0, stdout: `${rawVersionText(buildVersionInfo())}\n` };
    if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(v)) return { kind: 'exit', code: 0, stdout: `Kubernetes ${defaultGitVersion}\n` };
    if (!['false', '0', 'f', 'F', 'FALSE', 'False'].includes(v)) {
      return { kind: 'exit', code: 1, stderr: `Error: --version=${v}: setting the reported version is not supported by the node agent; use --version or --version=raw\n` };
    }
  }
  try {
    const config = await resolveConfig(values);
    const errs = validateNodeAgentConfig(config);
    if (errs.length > 0) return { kind: 'exit', code: 1, stderr: `Error: failed to validate kubelet configuration, error: [${errs.join(', ')}]\n` };
    return { kind: 'run', config, verbosity: (one(values, 'v') as number | undefined) ?? 0 };
  } catch (err) {
    return { kind: 'exit', code: 1, stderr: `Error: ${(err as Error).message}\n` };
  }
}

/** Merges defaults, --config, --config-dir and the flags into the node agent's configuration. */
export async function resolveConfig(values: FlagValues): Promise<NodeAgentConfig> {
  const configPath = one(values, 'config') as string | undefined;
  const configDir = one(values, 'config-dir') as string | undefined;
  const defaults = defaultNodeAgentConfig();
  // kubelet starts from the legacy flag defaults; a --config file replaces them with its own
  // (v1beta1-defaulted) content; drop-ins are then unmarshalled over that as they are, zero values
  // included (they are not defaulted).
  let draft: Draft = { ...legacyFlagDefaults(defaults) };
  if (configPath) {
    const doc = await loadConfigFile(configPath);
    refuseUnsupportedFields(doc);
    draft = { ...defaults };
    try {
      applyConfigDoc(draft, doc, true, defaults);
    } catch (err) {
      throw new Error(`failed to load kubelet config file, path: ${configPath}, error: ${(err as Error).message}`);
    }
  }
  if (configDir) {
    const doc = await mergeDropIns({}, configDir);
    refuseUnsupportedFields(doc);
    try {
      applyConfigDoc(draft, doc, false, defaults);
    } catch (err) {
      throw new Error(`failed to merge kubelet configs: ${(err as Error).message}`);
    }
  }
  let flagDoc: ConfigDoc;
  try {
    flagDoc = flagConfigDoc(values);
    applyConfigDoc(draft, flagDoc, false, defaults);
  } catch (err) {
    if (err instanceof FlagError) throw new Error(`failed to parse kubelet flag: ${err.message}`);
    if (err instanceof ConfigFieldError) throw new Error(`failed to parse kubelet flag: ${err.message}`);
    throw err;
  }
  try {
    if (draft.evictionHardRaw) draft.evictionHard = evictionThresholds(draft.evictionHardRaw);
    if (draft.evictionSoftRaw || draft.evictionSoftGraceRaw) draft.evictionSoft = evictionThresholds(draft.evictionSoftRaw ?? {}, draft.evictionSoftGraceRaw ?? {});
  } catch (err) {
    throw new Error(`failed to validate kubelet configuration, error: [invalid configuration: ${(err as Error).message}]`);
  }
  const { evictionHardRaw: _h, evictionSoftRaw: _s, evictionSoftGraceRaw: _g, ...config } = draft;
  const labels = (one(values, 'node-labels') as Record<string, string> | undefined) ?? {};
  checkNodeLabels(labels);
  const runtime = (one(values, 'runtime') as string | undefined) ?? 'remote';
  if (runtime !== 'remote' && runtime !== 'simulated') throw new Error(`invalid argument ${JSON.stringify(runtime)} for "--runtime" flag: must be remote or simulated`);
  const str = (name: string): string | undefined => {
    const v = one(values, name) as string | undefined;
    return v === undefined || v === '' ? undefined : v;
  };
  const kubeconfig = str('kubeconfig');
  const bootstrapKubeconfig = str('bootstrap-kubeconfig');
  const hostnameOverride = str('hostname-override');
  const simulationRulesFile = str('simulation-rules');
  const podWatch = str('simulated-pod-watch');
  if (podWatch !== undefined && podWatch !== 'shared' && podWatch !== 'per-node') throw new Error(`invalid argument ${JSON.stringify(podWatch)} for "--simulated-pod-watch" flag: must be shared or per-node`);
  if ((simulationRulesFile || podWatch) && runtime !== 'simulated') throw new Error(`--${simulationRulesFile ? 'simulation-rules' : 'simulated-pod-watch'} applies to simulated nodes only: it requires --runtime=simulated`);
  return {
    ...config,
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(bootstrapKubeconfig ? { bootstrapKubeconfig } : {}),
    ...(hostnameOverride ? { hostnameOverride: hostnameOverride.trim().toLowerCase() } : {}),
    certDir: str('cert-dir') ?? defaults.certDir,
    rootDir: str('root-dir') ?? defaults.rootDir,
    nodeIPs: nodeIPs(str('node-ip')),
    nodeLabels: labels,
    runtime,
    simulatedNodes: (one(values, 'nodes') as number | undefined) ?? 1,
    ...(simulationRulesFile ? { simulationRulesFile } : {}),
    ...(podWatch ? { simulatedPodWatch: podWatch as 'shared' | 'per-node' } : {}),
  };
}
