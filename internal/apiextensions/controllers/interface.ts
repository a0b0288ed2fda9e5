/**
 * What the apiextensions controllers are built from, narrowed so tests can hand them fakes: the
 * CRD informer (stored-form objects), the status writer, and a log.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { InformerHandlers } from '../../controllers/informer.js';
import type { CrdStatusUpdate } from './crd-status.js';

/** The parts of an Informer the controllers read. */
export interface CrdInformer {
  readonly synced: Promise<void>;
  get(key: string): KubeObject | undefined;
  list(): IterableIterator<KubeObject>;
  addHandlers(h: InformerHandlers): void;
}

/** Where the controllers log. */
export interface ControllerLog {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Common dependencies of the CRD controllers. */
export interface CrdControllerDeps {
  readonly informer: CrdInformer;
  readonly updateStatus: CrdStatusUpdate;
  readonly log: ControllerLog;
  /** Pause before a failed name is tried again the first time (default 5 ms; doubling per failure). */
  readonly retryMs?: number;
}

/** Why a CRD's schemas are not structural: the NonStructuralSchema condition's reason and message. */
export interface NonStructuralFinding {
  /** "Violations", or "StructuralError" when a schema cannot even be read as structural. */
  readonly reason: 'Violations' | 'StructuralError';
  readonly message: string;
}

/**
 * kube's calculateCondition input: the findings for a CRD given in apiextensions/v1 form
 * (preserveUnknownFields, and schema.NewStructural + ValidateStructural over every version's
 * openAPIV3Schema, paths spec.versions[i].schema.openAPIV3Schema...); undefined when structural.
 * The validation side's structuralSchemaErrors has this shape.
 */
export type StructuralViolations = (crdV1: KubeObject) => NonStructuralFinding | undefined;

/** A started controller: stop() ends its work. */
export interface RunningController {
  stop(): void;
}
