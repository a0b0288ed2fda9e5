/**
 * Volumes: persistentvolumes (CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS
 * VOLUMEATTRIBUTESCLASS REASON AGE, wide VOLUMEMODE), persistentvolumeclaims (STATUS VOLUME
 * CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE, wide VOLUMEMODE) and
 * storage.k8s.io storageclasses (PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE
 * ALLOWVOLUMEEXPANSION AGE). Quantities print as they are stored.
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, metadataOf, nameOf, objectAt, optionalBool, optionalString, stringAt, stringMapAt, stringsAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
const defaultClassAnnotations = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModes(modes: string[]): string {
  const short: Array<[string, string]> = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([mode]) => modes.includes(mode))
    .map(([, s]) => s)
    .join(',');
}

/** The storage quantity of a resource list, "0" (the zero Quantity) when absent. */
function storageOf(resources: Json | undefined): string {
  const q = resources?.storage;
  if (typeof q === 'string') return q;
  if (typeof q === 'number') return String(q);
  return '0';
}

function isDeleting(obj: Json): boolean {
  const t = metadataOf(obj).deletionTimestamp;
  return t !== undefined && t !== null;
}

/** The storage class, the beta annotation first (GetPersistentVolume(Claim)Class). */
function storageClassOf(obj: Json, specClass: string | undefined): string {
  const annotations = stringMapAt(metadataOf(obj), 'annotations');
  if (betaStorageClassAnnotation in annotations) return annotations[betaStorageClassAnnotation] as string;
  return specClass ?? '';
}

/** core/v1 persistentvolumes. */
export const persistentVolumePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Capacity', 'string', 'The storage size of the volume.'),
    column('Access Modes', 'string', 'How the volume can be mounted (RWO, ROX, RWX, RWOP).'),
    column('Reclaim Policy', 'string', 'What happens to the volume when its claim is released.'),
    column('Status', 'string', 'The phase of the volume, or Terminating.'),
    column('Claim', 'string', 'The claim bound to the volume, as namespace/name.'),
    column('StorageClass', 'string', 'The storage class the volume belongs to.'),
    column('VolumeAttributesClass', 'string', 'The volume attributes class of the volume.'),
    column('Reason', 'string', 'Why the volume is in its phase, when the system says.'),
    ageColumn,
    column('VolumeMode', 'string', 'Filesystem or Block.', 1),
  ],
  cells(pv, now) {
    const spec = objectAt(pv, 'spec');
    const status = objectAt(pv, 'status');
    const claimRef = objectAt(spec, 'claimRef');
    return [
      nameOf(pv),
      storageOf(objectAt(spec, 'capacity')),
      accessModes(stringsAt(spec, 'accessModes')),
      stringAt(spec, 'persistentVolumeReclaimPolicy'),
      isDeleting(pv) ? 'Terminating' : stringAt(status, 'phase'),
      claimRef ? `${stringAt(claimRef, 'namespace')}/${stringAt(claimRef, 'name')}` : '',
      storageClassOf(pv, stringAt(spec, 'storageClassName')),
      optionalString(spec, 'volumeAttributesClassName') ?? '<unset>',
      stringAt(status, 'reason'),
      creationAge(pv, now),
      optionalString(spec, 'volumeMode') ?? '<unset>',
    ];
  },
};

/** core/v1 persistentvolumeclaims: capacity and access modes show once the claim names a volume. */
export const persistentVolumeClaimPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The phase of the claim, or Terminating.'),
    column('Volume', 'string', 'The persistent volume bound to the claim.'),
    column('Capacity', 'string', 'The storage size of the bound volume.'),
    column('Access Modes', 'string', 'How the bound volume can be mounted (RWO, ROX, RWX, RWOP).'),
    column('StorageClass', 'string', 'The storage class the claim asks for.'),
    column('VolumeAttributesClass', 'string', 'The volume attributes class the claim asks for.'),
    ageColumn,
    column('VolumeMode', 'string', 'Filesystem or Block.', 1),
  ],
  cells(pvc, now) {
    const spec = objectAt(pvc, 'spec');
    const status = objectAt(pvc, 'status');
    const volumeName = stringAt(spec, 'volumeName');
    const bound = volumeName !== '';
    return [
      nameOf(pvc),
      isDeleting(pvc) ? 'Terminating' : stringAt(status, 'phase'),
      volumeName,
      bound ? storageOf(objectAt(status, 'capacity')) : '',
      bound ? accessModes(stringsAt(status, 'accessModes')) : '',
      storageClassOf(pvc, optionalString(spec, 'storageClassName')),
      optionalString(spec, 'volumeAttributesClassName') ?? '<unset>',
      creationAge(pvc, now),
      optionalString(spec, 'volumeMode') ?? '<unset>',
    ];
  },
};

/** storage.k8s.io storageclasses: the default class's name gets " (default)". */
export const storageClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', 'The volume plugin that provisions volumes of this class.'),
    column('ReclaimPolicy', 'string', 'The reclaim policy of volumes provisioned for this class.'),
    column('VolumeBindingMode', 'string', 'When volumes are bound and provisioned: Immediate or WaitForFirstConsumer.'),
    column('AllowVolumeExpansion', 'string', 'Whether claims of this class may grow.'),
    ageColumn,
  ],
  cells(sc, now) {
    const annotations = stringMapAt(metadataOf(sc), 'annotations');
    const isDefault = defaultClassAnnotations.some((a) => annotations[a] === 'true');
    return [
      isDefault ? `${nameOf(sc)} (default)` : nameOf(sc),
      stringAt(sc, 'provisioner'),
      optionalString(sc, 'reclaimPolicy') ?? 'Delete',
      optionalString(sc, 'volumeBindingMode') ?? 'Immediate',
      optionalBool(sc, 'allowVolumeExpansion') ?? false,
      creationAge(sc, now),
    ];
  },
};
