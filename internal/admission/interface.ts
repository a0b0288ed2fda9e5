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
  readonly userInfo: UserInfo;
  /**
   * Adds an annotation to the request's audit event (kube's AddAnnotation): key must be
   * "<DNS subdomain prefix>/<name>"; returns the error (and records nothing) for a malformed key or
   * one already set to another value. Recorded only when the request is audited.
   */
  readonly addAnnotation: AddAnnotation;
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
