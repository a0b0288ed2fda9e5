/**
 * Admission: plugins that see every write after it is decoded and before it is stored. Mutating
 * plugins (admit) may change the object; validating plugins (validate) must not. The chain runs
 * all mutating plugins, then, inside the store after defaulting and validation, all validating ones.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { RequestContext, UserInfo } from '../request/context.js';

/** The operation an admission request is for. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** AdmissionAttributes.addAnnotation: records key=value in the audit event, or returns why it cannot. */
export type AddAnnotation = (key: string, value: string) => Error | undefined;

/** What admission plugins see of a request (kube's admission.Attributes). */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The object to be stored (CREATE, UPDATE) — mutating plugins may change it in place. */
  readonly object: KubeObject | undefined;
  /** The stored object (UPDATE, DELETE). */
  readonly oldObject: KubeObject | undefined;
  readonly dryRun: boolean;
  /**
   * The operation's options as kube hands them to admission (and webhooks): a meta.k8s.io/v1
   * CreateOptions, UpdateOptions or DeleteOptions object (a patch's PatchOptions become the
   * UpdateOptions or CreateOptions of what it does). Absent where the request has none.
   */
  readonly options?: Readonly<Record<string, unknown>>;
  /**
   * Converts between the stored form (object, oldObject) and the request's version, and defaults an
   * object of the request's version (kube's versioned attributes; webhooks see that version).
   */
  readonly versioned?: AdmissionVersioning;
  readonly userInfo: UserInfo;
  /**
   * Adds an annotation to the request's audit event (kube's AddAnnotation): key must be
   * "<DNS subdomain prefix>/<name>"; returns the error (and records nothing) for a malformed key or
   * one already set to another value. Recorded only when the request is audited.
   */
  readonly addAnnotation: AddAnnotation;
}

/** The request's version of a resource: conversions from and to the stored form. Never mutate the argument. */
export interface AdmissionVersioning {
  /** apiVersion of the request's kind ("apps/v1", "autoscaling/v1" for scale). */
  readonly apiVersion: string;
  /** The kind in that version. */
  readonly kind: string;
  /** The stored form in the request's version. */
  toExternal(obj: KubeObject): KubeObject;
  /** An object of the request's version in the stored form. */
  toInternal(obj: KubeObject): KubeObject;
  /** Applies the request version's defaulting in place (after a webhook's patch). */
  defaults(obj: KubeObject): void;
}

/** One admission plugin. Throw a StatusError to refuse a request. */
export interface AdmissionPlugin {
  readonly name: string;
  handles(operation: AdmissionOperation): boolean;
  /** Mutating phase; may change attrs.object. */
  admit?(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void>;
  /** Validating phase; must not change anything. */
  validate?(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void>;
}

/** An admission phase as kube's metrics name it. */
export type AdmissionStepType = 'admit' | 'validate';

/**
 * Told of each admission phase the chain runs and of each plugin call in it, after it finished
 * (metrics: apiserver_admission_step_* and _controller_*). Must not throw; must be cheap.
 */
export interface AdmissionObserver {
  /** A whole phase (every plugin of it) took seconds; rejected when a plugin refused. */
  step(type: AdmissionStepType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
  /** One plugin's call took seconds. */
  controller(name: string, type: AdmissionStepType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
}
