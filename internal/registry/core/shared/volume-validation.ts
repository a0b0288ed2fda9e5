/**
 * Pod volumes (kube's ValidateVolumes and validateVolumeSource): unique DNS-1123 label names,
 * exactly one source each, and the rules of the sources users write most (emptyDir, hostPath,
 * secret, configMap, persistentVolumeClaim, downwardAPI, projected, nfs). Other sources are only
 * counted. Field paths keep kube's quirks (`downwarAPI`, `cephFS`, `persistentDisk`).
 */
import { childPath, duplicate, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label } from '../../../validation/label-values.js';
import { quantityFromJSON } from '../../../validation/quantity.js';
import { validateObjectFieldSelector, validateResourceFieldSelector, volumeFieldPaths } from './container-env.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from './json-value.js';

const fileModeMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** Volume sources in kube's checking order, with the path kube reports a second source at. */
const sourceOrder: ReadonlyArray<[string, string]> = [
  ['emptyDir', 'emptyDir'], ['hostPath', 'hostPath'], ['gitRepo', 'gitRepo'], ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'], ['secret', 'secret'], ['nfs', 'nfs'], ['iscsi', 'iscsi'], ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'], ['persistentVolumeClaim', 'persistentVolumeClaim'], ['rbd', 'rbd'], ['cinder', 'cinder'], ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'], ['downwardAPI', 'downwarAPI'], ['fc', 'fc'], ['flexVolume', 'flexVolume'], ['configMap', 'configMap'],
  ['azureFile', 'azureFile'], ['vsphereVolume', 'vsphereVolume'], ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'], ['azureDisk', 'azureDisk'], ['storageos', 'storageos'], ['projected', 'projected'],
  ['scaleIO', 'scaleIO'], ['csi', 'csi'], ['ephemeral', 'ephemeral'], ['image', 'image'],
];

function validateMode(mode: unknown, path: string): FieldError[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [invalid(path, mode, fileModeMsg)] : [];
}

/** validatePathNoBacksteps. */
function noBacksteps(p: string, path: string): FieldError[] {
  return p.split('/').includes('..') ? [invalid(path, p, "must not contain '..'")] : [];
}

/** ValidateLocalNonReservedPath: relative, no '..' element, not starting with '..'. */
export function validateLocalNonReservedPath(p: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.startsWith('/')) errs.push(invalid(path, p, 'must be a relative path'));
  errs.push(...noBacksteps(p, path));
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(invalid(path, p, "must not start with '..'"));
  return errs;
}

/** validateLocalDescendingPath: relative, no '..' element. */
export function validateLocalDescendingPath(p: string, path: string): FieldError[] {
  return [...(p.startsWith('/') ? [invalid(path, p, 'must be a relative path')] : []), ...noBacksteps(p, path)];
}

function validateKeyToPath(kp: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!stringAt(kp, 'key')) errs.push(required(childPath(path, 'key'), ''));
  const p = stringAt(kp, 'path');
  if (!p) errs.push(required(childPath(path, 'path'), ''));
  errs.push(...validateLocalNonReservedPath(p, childPath(path, 'path')));
  errs.push(...validateMode(kp.mode, childPath(path, 'mode')));
  return errs;
}

function validateItems(source: JsonObject, path: string): FieldError[] {
  return arrayAt(source, 'items').flatMap((kp, i) => validateKeyToPath(asObject(kp) ?? {}, indexPath(childPath(path, 'items'), i)));
}

/** validateDownwardAPIVolumeFile; kube reports a missing reference at the source's path, not the item's. */
function validateDownwardAPIFile(file: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const p = stringAt(file, 'path');
  if (!p) errs.push(required(childPath(path, 'path'), ''));
  errs.push(...validateLocalNonReservedPath(p, childPath(path, 'path')));
  const fieldRef = objectAt(file, 'fieldRef');
  const resourceFieldRef = objectAt(file, 'resourceFieldRef');
  if (fieldRef) {
    errs.push(...validateObjectFieldSelector(fieldRef, volumeFieldPaths, childPath(path, 'fieldRef')));
    if (resourceFieldRef) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceFieldRef) {
    errs.push(...validateResourceFieldSelector(resourceFieldRef, childPath(path, 'resourceFieldRef'), true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateMode(file.mode, childPath(path, 'mode')));
  return errs;
}

function validateProjected(projected: JsonObject, path: string): FieldError[] {
  const errs = validateMode(projected.defaultMode, childPath(path, 'defaultMode'));
  const paths = new Set<string>();
  const claim = (p: string, bad: unknown): void => {
    if (!p) return;
    if (paths.has(p)) errs.push(invalid(path, bad, 'conflicting duplicate paths'));
    paths.add(p);
  };
  arrayAt(projected, 'sources').forEach((raw, i) => {
    const src = asObject(raw) ?? {};
    const srcPath = indexPath(childPath(path, 'sources'), i);
    let count = 0;
    for (const [key, nameKey] of [['secret', 'name'], ['configMap', 'name']] as const) {
      const s = objectAt(src, key);
      if (!s) continue;
      count++;
      if (!stringAt(s, nameKey)) errs.push(required(childPath(srcPath, key, nameKey), ''));
      arrayAt(s, 'items').forEach((kp, j) => {
        const item = asObject(kp) ?? {};
        errs.push(...validateKeyToPath(item, indexPath(childPath(srcPath, key, 'items'), j)));
        claim(stringAt(item, 'path'), stringAt(s, nameKey));
      });
    }
    const downward = objectAt(src, 'downwardAPI');
    if (downward) {
      count++;
      for (const f of arrayAt(downward, 'items')) {
        const file = asObject(f) ?? {};
        errs.push(...validateDownwardAPIFile(file, childPath(srcPath, 'downwardAPI')));
        claim(stringAt(file, 'path'), stringAt(file, 'path'));
      }
    }
    const token = objectAt(src, 'serviceAccountToken');
    if (token) {
      count++;
      const seconds = typeof token.expirationSeconds === 'number' ? token.expirationSeconds : 0;
      const secPath = childPath(srcPath, 'serviceAccountToken', 'expirationSeconds');
      if (seconds < 600) errs.push(invalid(secPath, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(invalid(secPath, seconds, 'may not specify a duration larger than 2^32 seconds'));
      const p = stringAt(token, 'path');
      if (!p) errs.push(required(childPath(path, 'path'), ''));
      else errs.push(...validateLocalNonReservedPath(p, childPath(path, 'path')));
    }
    if (objectAt(src, 'clusterTrustBundle')) count++;
    if (count > 1) errs.push(forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** The checks of one source kind, for the kinds validated here. */
function validateSource(kind: string, s: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  switch (kind) {
    case 'emptyDir': {
      const limit = s.sizeLimit;
      let negative = false;
      try {
        negative = limit !== undefined && limit !== null && quantityFromJSON(limit).sign() < 0;
      } catch {
        // An unparsable sizeLimit is a decoding error kube reports before validation.
      }
      if (negative) errs.push(forbidden(childPath(path, 'sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
      break;
    }
    case 'hostPath': {
      const p = stringAt(s, 'path');
      if (!p) return [required(childPath(path, 'path'), '')];
      errs.push(...noBacksteps(p, childPath(path, 'path')));
      const type = s.type;
      if (type !== undefined && type !== null && !hostPathTypes.includes(type as string)) errs.push(notSupported(childPath(path, 'type'), type, hostPathTypes));
      break;
    }
    case 'secret':
    case 'configMap': {
      const nameKey = kind === 'secret' ? 'secretName' : 'name';
      if (!stringAt(s, nameKey)) errs.push(required(childPath(path, nameKey), ''));
      errs.push(...validateMode(s.defaultMode, childPath(path, 'defaultMode')), ...validateItems(s, path));
      break;
    }
    case 'persistentVolumeClaim':
      if (!stringAt(s, 'claimName')) errs.push(required(childPath(path, 'claimName'), ''));
      break;
    case 'downwardAPI':
      errs.push(...validateMode(s.defaultMode, childPath(path, 'defaultMode')));
      for (const f of arrayAt(s, 'items')) errs.push(...validateDownwardAPIFile(asObject(f) ?? {}, path));
      break;
    case 'projected':
      errs.push(...validateProjected(s, path));
      break;
    case 'nfs': {
      const p = stringAt(s, 'path');
      if (!stringAt(s, 'server')) errs.push(required(childPath(path, 'server'), ''));
      if (!p) errs.push(required(childPath(path, 'path'), ''));
      if (!p.startsWith('/')) errs.push(invalid(childPath(path, 'path'), p, 'must be an absolute path'));
      break;
    }
    default:
  }
  return errs;
}

function validateVolumeSource(volume: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, secondPath] of sourceOrder) {
    const s = volume[key];
    if (s === undefined || s === null) continue;
    if (count > 0) {
      errs.push(forbidden(childPath(path, secondPath), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...validateSource(key, asObject(s) ?? {}, childPath(path, key)));
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: the errors, and the names of the volumes that validated (what volumeMounts may name). */
export function validateVolumes(volumes: unknown[], path: string): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((raw, i) => {
    const vol = asObject(raw) ?? {};
    const p = indexPath(path, i);
    const namePath = childPath(p, 'name');
    const name = stringAt(vol, 'name');
    const el = validateVolumeSource(vol, p);
    if (!name) el.push(required(namePath, ''));
    else el.push(...isDNS1123Label(name).map((m) => invalid(namePath, name, m)));
    if (names.has(name)) el.push(duplicate(namePath, name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { errs, names };
}
