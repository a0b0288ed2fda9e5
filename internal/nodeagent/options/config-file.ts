/**
 * --config and --config-dir: a KubeletConfiguration (kubelet.config.k8s.io/v1beta1) in YAML or JSON,
 * decoded strictly (unknown fields, duplicate fields and wrong types are refused with Go's decoder
 * messages), then drop-ins (*.conf files of --config-dir, walked in lexical order) merged over it
 * field by field as kubelet merges them (objects merge, everything else is replaced).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { checkKind, configFields, nestedFields, nestedObjects } from './config-fields.js';
import { unsupportedFields, isZeroValue } from './unsupported.js';

/** The only group/version kubelet 1.33 reads its configuration in. */
export const kubeletConfigAPIVersion = 'kubelet.config.k8s.io/v1beta1';
/** The configuration's kind. */
export const kubeletConfigKind = 'KubeletConfiguration';

/** A decoded document: the fields as given (apiVersion and kind removed). */
export type ConfigDoc = Record<string, unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses YAML or JSON text; duplicate keys are a strict decoding error, as in kube's decoder. */
function parseText(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const dup = doc.errors.find((e) => e.code === 'DUPLICATE_KEY');
  if (dup) throw new Error(`strict decoding error: ${dup.message.split('\n')[0]}`);
  if (doc.errors.length > 0) throw new Error(`error converting YAML to JSON: ${(doc.errors[0] as Error).message.split('\n')[0]}`);
  return doc.toJS();
}

/** Checks type meta as kube's universal decoder does. */
function checkTypeMeta(obj: Record<string, unknown>, text: string): void {
  const apiVersion = obj.apiVersion;
  const kind = obj.kind;
  if (typeof kind !== 'string' || kind === '') throw new Error(`Object 'Kind' is missing in '${text.trim()}'`);
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${text.trim()}'`);
  if (apiVersion !== kubeletConfigAPIVersion || kind !== kubeletConfigKind) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/kubelet/apis/config/scheme/scheme.go:33"`);
  }
}

/** Strict checks of every field: unknown ones collected as Go lists them, types checked. */
function checkFields(doc: ConfigDoc): void {
  const unknown: string[] = [];
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (!prefix && (k === 'apiVersion' || k === 'kind')) continue;
      if (nestedObjects.includes(path)) {
        if (v === null) continue;
        if (!isObject(v)) throw new Error(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field KubeletConfiguration.${path} of type struct`);
        walk(v, path);
        continue;
      }
      const spec = prefix ? nestedFields[path] : configFields[k];
      if (spec) {
        checkKind(spec.kind, v, path);
        continue;
      }
      if (!prefix && unsupportedFields[k]) continue;
      unknown.push(`unknown field ${JSON.stringify(path)}`);
    }
  };
  walk(doc, '');
  if (unknown.length > 0) throw new Error(`strict decoding error: ${unknown.join(', ')}`);
}

/** Refuses KubeletConfiguration fields the node agent cannot honour when set to other than their default. */
export function refuseUnsupportedFields(doc: ConfigDoc): void {
  for (const [k, v] of Object.entries(doc)) {
    const entry = unsupportedFields[k];
    if (!entry) continue;
    const [why, accepted] = entry;
    if (isZeroValue(v) || accepted.some((a) => JSON.stringify(a) === JSON.stringify(v))) continue;
    throw new Error(`KubeletConfiguration field ${k} (${JSON.stringify(v)}) is not supported: ${why}`);
  }
}

/** Decodes one file's text into a ConfigDoc, strictly. */
export function decodeKubeletConfiguration(text: string): ConfigDoc {
  let obj: unknown;
  try {
    obj = parseText(text);
  } catch (err) {
    throw new Error(`failed to decode: ${(err as Error).message}`);
  }
  if (!isObject(obj)) throw new Error(`failed to decode: couldn't get version/kind; json parse error: the document is not an object`);
  checkTypeMeta(obj, text);
  try {
    checkFields(obj);
  } catch (err) {
    throw new Error(`failed to decode: ${(err as Error).message}`);
  }
  const { apiVersion: _a, kind: _k, ...fields } = obj;
  return fields;
}

/** The path fields kubelet resolves against the directory of the file that set them (KubeletConfigurationPathRefs). */
const pathFields: ReadonlyArray<readonly string[]> = [['staticPodPath'], ['tlsCertFile'], ['tlsPrivateKeyFile'], ['resolvConf'], ['authentication', 'x509', 'clientCAFile']];

/** Makes doc's relative path fields absolute against dir, as kubelet does for its config files. */
export function resolveRelativePaths(doc: ConfigDoc, dir: string): ConfigDoc {
  const out = structuredClone(doc);
  for (const path of pathFields) {
    let at: Record<string, unknown> | undefined = out;
    for (const p of path.slice(0, -1)) at = isObject(at?.[p]) ? (at?.[p] as Record<string, unknown>) : undefined;
    const leaf = path[path.length - 1] as string;
    const v = at?.[leaf];
    if (at && typeof v === 'string' && v !== '' && !isAbsolute(v)) at[leaf] = resolve(dir, v);
  }
  return out;
}

/** Reads and decodes --config. */
export async function loadConfigFile(path: string): Promise<ConfigDoc> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to load Kubelet config file ${path}, error failed to read kubelet config file ${JSON.stringify(path)}, error: ${(err as Error).message}`);
  }
  try {
    return resolveRelativePaths(decodeKubeletConfiguration(text), dirname(resolve(path)));
  } catch (err) {
    throw new Error(`failed to load Kubelet config file ${path}, error ${(err as Error).message}`);
  }
}

/** Merges over into base as Go's json.Unmarshal into an existing struct does: objects merge, the rest replaces. */
export function mergeConfigDocs(base: ConfigDoc, over: ConfigDoc): ConfigDoc {
  const out: ConfigDoc = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const have = out[k];
    out[k] = isObject(have) && isObject(v) ? mergeConfigDocs(have, v) : v;
  }
  return out;
}

async function dropInFiles(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await dropInFiles(path)));
    else if (e.name.endsWith('.conf')) out.push(path);
  }
  return out;
}

/** Merges every *.conf drop-in of dir over base, in lexical order; each must be a KubeletConfiguration. */
export async function mergeDropIns(base: ConfigDoc, dir: string): Promise<ConfigDoc> {
  let files: string[];
  try {
    files = await dropInFiles(dir);
  } catch (err) {
    throw new Error(`failed to merge kubelet configs: failed to walk through kubelet dropin directory ${JSON.stringify(dir)}: ${(err as Error).message}`);
  }
  let doc = base;
  for (const file of files) {
    try {
      doc = mergeConfigDocs(doc, resolveRelativePaths(decodeKubeletConfiguration(await readFile(file, 'utf8')), dirname(resolve(file))));
    } catch (err) {
      throw new Error(`failed to merge kubelet configs: failed to merge drop-in kubelet config file ${JSON.stringify(file)}: ${(err as Error).message}`);
    }
  }
  return doc;
}
