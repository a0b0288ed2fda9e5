/**
 * --runtime-config as kube-apiserver reads it: the key=value map (cliflag.ConfigurationMap), the
 * core group's spellings rewritten (kube's options Complete), the checks of its options Validate
 * (APIEnablementOptions and the priority and fairness check), then the overrides merged onto the
 * defaults (resourceconfig.MergeAPIResourceConfigs). Error texts are kube's.
 */
import { defaultResourceConfig } from './defaults.js';
import { isGroupRegistered, isVersionRegistered } from './registered.js';
import { groupVersionString, type GroupVersion, type ResourceConfig } from './resource-config.js';

/** The flag's key=value pairs, in the order given (a later value for a key replaces an earlier one). */
export type RuntimeConfigMap = Map<string, string>;

/**
 * Adds one occurrence of the flag to the map (pflag's ConfigurationMap.Set): comma-separated
 * pairs, each split at its first "=", both sides trimmed; a key without "=" gets "".
 */
export function addRuntimeConfig(map: RuntimeConfigMap, value: string): void {
  for (const pair of value.split(',')) {
    if (pair.length === 0) continue;
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    map.set(key, eq < 0 ? '' : pair.slice(eq + 1).trim());
  }
}

/**
 * kube's Complete: "v1", "v1/...", "api/v1" and "api/v1/..." all become "/v1" (so a resource key
 * of the core group sets the whole core version, as in kube), and "api/legacy" is dropped.
 */
export function completeRuntimeConfig(map: RuntimeConfigMap): RuntimeConfigMap {
  const out: RuntimeConfigMap = new Map();
  for (const [key, value] of map) {
    if (key === 'api/legacy') continue;
    if (key === 'v1' || key.startsWith('v1/') || key === 'api/v1' || key.startsWith('api/v1/')) out.set('/v1', value);
    else out.set(key, value);
  }
  return out;
}

/** The special keys, in the order kube applies them. */
const matchers: ReadonlyArray<readonly [string, (gv: GroupVersion) => boolean]> = [
  ['api/all', () => true],
  ['api/ga', (gv) => /^v\d+$/.test(gv.version)],
  ['api/beta', (gv) => /^v\d+beta\d+$/.test(gv.version)],
  ['api/alpha', (gv) => /^v\d+alpha\d+$/.test(gv.version)],
];
const matcherKeys = new Set(matchers.map(([k]) => k));

/** apimachinery's ParseGroupVersion of "a/b" or "b". */
function parseGroupVersion(s: string): GroupVersion | undefined {
  if (s === '' || s === '/') return { group: '', version: '' };
  const slashes = s.split('/').length - 1;
  if (slashes === 0) return { group: '', version: s };
  if (slashes === 1) return { group: s.slice(0, s.indexOf('/')), version: s.slice(s.indexOf('/') + 1) };
  return undefined;
}

/** cliflag.ConfigurationMap.String: the sorted "key=value" pairs joined by commas. */
function configurationMapString(map: RuntimeConfigMap): string {
  return [...map].map(([k, v]) => `${k}=${v}`).sort().join(',');
}

/** kube's validateAPIPriorityAndFairness: the APF controller needs flowcontrol.apiserver.k8s.io/v1. */
function priorityAndFairnessErrors(map: RuntimeConfigMap, enablePriorityAndFairness: boolean): string[] {
  if (!enablePriorityAndFairness) return [];
  const s = configurationMapString(map);
  for (const key of ['flowcontrol.apiserver.k8s.io/v1', 'api/ga', 'api/all']) {
    if (s.includes(`${key}=false`)) return [`--runtime-config=${key}=false conflicts with --enable-priority-and-fairness=true`];
    if (s.includes(`${key}=true`)) return [];
  }
  return [];
}

/** APIEnablementOptions.Validate: api/all=false alone, keys that are no group version, unknown groups. */
function enablementErrors(map: RuntimeConfigMap): string[] {
  if (map.get('api/all') === 'false' && map.size === 1) return ['invalid key with only api/all=false'];
  const groups: string[] = [];
  for (const key of map.keys()) {
    if (matcherKeys.has(key)) continue;
    const tokens = key.split('/');
    const gv = tokens.length === 2 || tokens.length === 3 ? parseGroupVersion(`${tokens[0]}/${tokens[1]}`) : undefined;
    if (!gv) return [`runtime-config invalid key ${key}`];
    groups.push(gv.group);
  }
  const unknown = groups.filter((g) => !isGroupRegistered(g));
  return unknown.length > 0 ? [`unknown api groups ${unknown.join(',')}`] : [];
}

/** strconv.ParseBool's accepted spellings. */
function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** MergeAPIResourceConfigs: the special keys first, then versions, then resources (highest priority). */
function merge(config: ResourceConfig, map: RuntimeConfigMap): void {
  for (const [key, match] of matchers) {
    const value = map.get(key);
    if (value === undefined) continue;
    if (value === 'false') config.setMatchingVersions(match, false);
    else if (value === 'true') config.setMatchingVersions(match, true);
    else throw new Error(`invalid value ${key}=${value}`);
  }
  const versions: Array<[GroupVersion, boolean]> = [];
  const resources: Array<[GroupVersion, string, boolean]> = [];
  for (const [key, value] of map) {
    if (matcherKeys.has(key)) continue;
    const tokens = key.split('/');
    if (tokens.length < 2 || tokens.length > 3) continue;
    const gv = parseGroupVersion(`${tokens[0]}/${tokens[1]}`);
    if (!gv) throw new Error(`invalid key ${key}`);
    if (!isGroupRegistered(gv.group)) continue;
    if (!isVersionRegistered(gv)) throw new Error(`group version ${groupVersionString(gv)} that has not been registered`);
    const enabled = value === '' ? true : parseGoBool(value);
    if (enabled === undefined) throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    if (tokens.length === 2) {
      versions.push([gv, enabled]);
      continue;
    }
    const resource = tokens[2] as string;
    if (resource.toLowerCase() !== resource) {
      throw new Error(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`);
    }
    resources.push([gv, resource, enabled]);
  }
  for (const [gv, enabled] of versions) config.setVersionExplicitly(gv, enabled);
  for (const [gv, resource, enabled] of resources) config.setResource(gv, resource, enabled);
}

/**
 * The enablement --runtime-config asks for over kube 1.33's defaults. Throws an Error with kube's
 * message when kube-apiserver would refuse to start: its validation errors together (one alone as
 * itself, several as "[a, b]"), else the first error of the merge.
 */
export function resolveRuntimeConfig(given: RuntimeConfigMap, opts: { readonly enablePriorityAndFairness: boolean }): ResourceConfig {
  const map = completeRuntimeConfig(given);
  const errors = [...priorityAndFairnessErrors(map, opts.enablePriorityAndFairness), ...enablementErrors(map)];
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
  const config = defaultResourceConfig();
  merge(config, map);
  return config;
}
