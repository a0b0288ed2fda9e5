/**
 * What the endpoint handlers call: a RestStorage per resource or subresource, implementing only
 * the verbs it supports. Objects here are in the resource's storage (hub) version; the endpoint
 * layer converts to and from the version a client speaks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../api/meta/types.js';
import type { RequestContext } from '../request/context.js';
import type { ListResult, ResourceVersionMatch, StorageWatch } from '../storage/interface.js';
import { everythingFields, type FieldSelector } from '../selectors/fields.js';
import { everythingLabels, type LabelSelector } from '../selectors/labels.js';

/** Parsed list/watch query parameters (metav1.ListOptions). */
export interface ListOptions {
  readonly labelSelector: LabelSelector;
  readonly fieldSelector: FieldSelector;
  readonly resourceVersion: string;
  readonly resourceVersionMatch: ResourceVersionMatch;
  readonly limit: number;
  readonly continueToken: string;
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents?: boolean;
  readonly timeoutSeconds?: number;
}

/** Parsed get query parameters (metav1.GetOptions). */
export interface GetOptions {
  readonly resourceVersion: string;
}

/** metav1.DeleteOptions, validated. */
export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly orphanDependents?: boolean;
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  readonly dryRun: boolean;
}

/** Options shared by create, update and patch (metav1.CreateOptions / UpdateOptions / PatchOptions). */
export interface WriteOptions {
  readonly dryRun: boolean;
  readonly fieldManager?: string;
}

/** A check admission runs on the object about to be stored; throws a StatusError to refuse. */
export type ValidateObjectFunc = (ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined) => Promise<void> | void;

/**
 * How an update computes the new object from the current one (kube's rest.UpdatedObjectInfo).
 * PUT returns the body; PATCH applies the patch to old. old is undefined when the object does not
 * exist (create-on-update). May be called more than once when a write loses a race.
 */
export interface UpdatedObjectInfo {
  updatedObject(ctx: RequestContext, old: KubeObject | undefined): Promise<KubeObject>;
}

/** The result of an update: the stored object and whether it was created. */
export interface UpdateResult {
  readonly object: KubeObject;
  readonly created: boolean;
}

/** The result of a delete: the object's last state, and whether it is gone or only marked. */
export interface DeleteResult {
  readonly object: KubeObject;
  /** True when removed from storage; false when graceful deletion or finalizers keep it. */
  readonly deleted: boolean;
  /** Answer with the object even when it was removed (kube's ReturnDeletedObject); else a Status. */
  readonly returnDeletedObject?: boolean;
}

/** Serves a connected request (kube's rest.Connecter handler): streams the answer itself; rejects with a StatusError before answering. */
export type ConnectHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** A resource's (or subresource's) storage as the handlers see it. Verbs it lacks answer 405. */
export interface RestStorage {
  /**
   * Other apiVersions whose bodies this endpoint accepts as its own kind because their schema is
   * the same (pods/eviction takes policy/v1beta1 Evictions, as kube's decoder does).
   */
  readonly bodyApiVersions?: readonly string[];
  /**
   * A connect subresource (pods/proxy, services/proxy; kube's rest.Connecter): every verb it
   * declares reaches connect(), after CONNECT admission saw options (the *ProxyOptions object:
   * kind, apiVersion and path, the request's subpath). name is the path's name ("pod:port").
   */
  connect?(ctx: RequestContext, name: string, options: KubeObject): Promise<ConnectHandler>;
  /**
   * The options object of a connect request decoded from its query (kube's NewConnectOptions and
   * parameter codec: PodExecOptions from command=, stdin= ...); without it the options carry only
   * the path. May throw a StatusError (BadRequest) for a query it cannot decode.
   */
  connectOptions?(query: URLSearchParams): KubeObject;
  /** false for a streamed GET served through connect() that kube serves without admission (pods/log). */
  readonly connectAdmission?: boolean;
  get?(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject>;
  list?(ctx: RequestContext, opts: ListOptions): Promise<ListResult>;
  watch?(ctx: RequestContext, opts: ListOptions): Promise<StorageWatch>;
  /** Creates obj. A subresource's create (kube's NamedCreater) acts on the parent named ctx.requestInfo.name. */
  create?(ctx: RequestContext, obj: KubeObject, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject>;
  update?(
    ctx: RequestContext,
    name: string,
    info: UpdatedObjectInfo,
    opts: WriteOptions & { forceAllowCreate?: boolean },
    validate?: ValidateObjectFunc,
  ): Promise<UpdateResult>;
  delete?(ctx: RequestContext, name: string, opts: DeleteOptions, validate?: ValidateObjectFunc): Promise<DeleteResult>;
  deleteCollection?(
    ctx: RequestContext,
    listOpts: ListOptions,
    deleteOpts: DeleteOptions,
    validate?: ValidateObjectFunc,
  ): Promise<KubeObject[]>;
}

/**
 * List options selecting everything, the most recent state, unpaged: what in-process callers
 * (controllers, informers) list and watch with. Shared and frozen; spread it to change a field.
 */
export const listEverything: ListOptions = Object.freeze({
  labelSelector: everythingLabels,
  fieldSelector: everythingFields,
  resourceVersion: '',
  resourceVersionMatch: '',
  limit: 0,
  continueToken: '',
  watch: false,
  allowWatchBookmarks: false,
});
