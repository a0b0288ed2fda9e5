/**
 * What every verb handler shares: the handler input, writing objects and lists in the negotiated
 * representation (JSON, YAML or Table), decoding bodies, and building admission attributes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject, ListMeta, Status } from '../../../api/meta/types.js';
import type { AdmissionChain } from '../../admission/chain.js';
import { annotatorFor } from '../../admission/annotations.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../admission/interface.js';
import { admissionVersioning } from '../admission-versioning.js';
import { newBadRequest, newUnsupportedMediaType } from '../../apierrors/factories.js';
import type { DeleteOptions, ValidateObjectFunc } from '../../registry/interface.js';
import type { RequestContext } from '../../request/context.js';
import { asObject, parseBodyStrict, readBody, sortKeysDeep } from '../negotiation/body.js';
import { acceptedBodyTypes, bodyEncoding, contentTypeOf, negotiateOutput, type OutputTarget } from '../negotiation/media-type.js';
import { asPartialObjectMetadata, asPartialObjectMetadataList, checkPartialShape } from '../negotiation/partial-metadata.js';
import { parseIncludeObject, toTable } from '../negotiation/table.js';
import type { TablePrinter } from '../negotiation/printers/types.js';
import { encodeBody, jsonNewline, setWarnings, wantsPretty, writeBody } from '../negotiation/writer.js';
import { toExternal, toInternal, type ResourceScope } from '../scope.js';
import { checkDecode, checkFromUnstructured, hasSchema } from '../../validation/schema/index.js';
import { patchResultInvalid } from './patch-errors.js';
import { applyFieldValidation, cannotBeHandled, orderedFieldMessages } from './field-validation.js';
import type { FieldValidation } from './write-options.js';
import type { ListResult } from '../../storage/interface.js';
import type { ServerMetrics } from '../../observability/metrics.js';
import type { KlogLogger } from '../../observability/logging.js';
import { attachEncodedJson, encodedJsonOf } from '../../storage/encoded.js';
import { jsonListPieces, writeStreamedBody } from '../negotiation/list-stream.js';
import { encodeListPieces } from '../../../proto/list-stream.js';
import type { JsonObject } from '../../../proto/types.js';

/** Everything a verb handler gets. */
export interface HandlerInput {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly query: URLSearchParams;
  readonly ctx: RequestContext;
  readonly scope: ResourceScope;
  readonly admission: AdmissionChain;
  /** --min-request-timeout in seconds: a watch without timeoutSeconds lasts between one and two of these. */
  readonly minRequestTimeoutSeconds: number;
  /** Aborted when the server shutting down ends this watch (see RequestContext.shutdownSignal): it ends cleanly. */
  readonly shutdown: AbortSignal;
  /** True for the deprecated /watch/ paths. */
  readonly watchPath: boolean;
  /** The WatchList gate: watches may ask for sendInitialEvents (parseListOptions). */
  readonly watchList?: boolean;
  /** The server's metrics (absent in handler tests). */
  readonly metrics?: ServerMetrics;
  /** The server's logger (absent in handler tests). */
  readonly log?: KlogLogger;
}

/** A verb handler. Throws StatusErrors; the dispatcher writes them. */
export type Handler = (h: HandlerInput) => Promise<void>;

/**
 * Negotiates the output first, so a 406 happens before any side effect. collection is true for
 * verbs answering a list (list, deletecollection): PartialObjectMetadata must then be asked for in
 * its List form, and the other verbs' answers in the single form (kube finds this out only after
 * the write; refusing first is what it means to do).
 */
export function outputFor(h: HandlerInput, collection = false): OutputTarget {
  const target = negotiateOutput(h.req.headers.accept, true, h.scope.protobuf);
  checkPartialShape(target.as, collection, h.scope.group, h.scope.kind);
  return target;
}

/** Which printer a Table of this endpoint uses: the resource's own, also for status; default columns for other subresources. */
export function tableResource(h: HandlerInput): { group: string; version: string; resource: string } | undefined {
  const s = h.scope;
  return s.subresource === '' || s.subresource === 'status' ? { group: s.group, version: s.version, resource: s.resource } : undefined;
}

/** The Table options naming this endpoint's printer: its own (custom resources, also for status), or the built-in one of tableResource. */
export function tableSource(h: HandlerInput): { resource?: { group: string; version: string; resource: string }; printer?: TablePrinter } {
  const resource = tableResource(h);
  if (!resource) return {};
  return h.scope.printer ? { resource, printer: h.scope.printer } : { resource };
}

function isStatus(obj: unknown): obj is Status {
  return typeof obj === 'object' && obj !== null && (obj as { kind?: unknown }).kind === 'Status';
}

/** Writes one stored object (converted to the endpoint's version) or a Status with code. */
export async function respondObject(h: HandlerInput, target: OutputTarget, code: number, obj: KubeObject | Status): Promise<void> {
  const pretty = wantsPretty(h.req, h.query);
  setWarnings(h.res, h.ctx.warnings);
  const audit = h.ctx.audit;
  if (isStatus(obj)) {
    audit?.setResponseObject(obj);
    await writeBody(h.req, h.res, code, contentTypeOf(target.encoding), encodeBody(obj, target.encoding, pretty));
    return;
  }
  if (target.as === '' && target.encoding === 'json' && !pretty && servesStoredForm(h.scope)) {
    // The cache's bytes are this endpoint's JSON for the object: write them, encode nothing.
    const bytes = encodedJsonOf(obj);
    if (bytes) {
      // The object itself: the audit log writes it from the same bytes.
      audit?.setResponseObject(obj);
      await writeBody(h.req, h.res, code, target.contentType, bytes, jsonNewline);
      return;
    }
  }
  const external = toExternal(h.scope, obj);
  if (target.as === 'Table') {
    const table = toTable([external], undefined, { include: parseIncludeObject(h.query.get('includeObject')), tableVersion: target.metaVersion ?? 'v1', ...tableSource(h) });
    audit?.setResponseObject(table);
    await writeBody(h.req, h.res, code, target.contentType, encodeBody(table, target.encoding, pretty));
    return;
  }
  if (target.as === 'PartialObjectMetadata') {
    const partial = asPartialObjectMetadata(external, target.metaVersion ?? 'v1');
    audit?.setResponseObject(partial);
    await writeBody(h.req, h.res, code, target.contentType, encodeBody(partial, target.encoding, pretty));
    return;
  }
  const body = encodeBody(external, target.encoding, pretty);
  if (audit) {
    // The audit log can write the answer from these bytes (compact JSON without its newline).
    if (audit.level === 'RequestResponse' && target.encoding === 'json' && !pretty && external.metadata) attachEncodedJson(external, body.subarray(0, body.length - 1));
    audit.setResponseObject(external);
  }
  await writeBody(h.req, h.res, code, target.contentType, body);
}

/** A list's items as respondList takes them: a storage ListResult, whose items it reads only when it needs them. */
export type ListItems = Pick<ListResult, 'items' | 'encodedItems'>;

function isListItems(list: readonly KubeObject[] | ListItems): list is ListItems {
  return !Array.isArray(list);
}

/**
 * Whether the cache's encodedItems are this endpoint's JSON for the items: no conversion, and the
 * version and kind served are the stored ones (then toExternal changes nothing the bytes lack).
 */
export function servesStoredForm(scope: ResourceScope): boolean {
  return scope.conversion === undefined && scope.apiVersion === scope.stored.apiVersion && scope.kind === scope.stored.kind;
}

function* mapItems<T>(items: readonly KubeObject[], fn: (obj: KubeObject) => T): Generator<T, void, undefined> {
  for (const obj of items) yield fn(obj);
}

/**
 * Writes a list of stored objects as <Kind>List (or a Table). Pass a ListResult itself (not its
 * items) so that a JSON answer in the stored version can write the cache's encodedItems and never
 * read items. Compact JSON and Protobuf lists stream (negotiation/list-stream.ts); Table,
 * PartialObjectMetadataList, YAML and pretty JSON are encoded whole.
 */
export async function respondList(h: HandlerInput, target: OutputTarget, list: readonly KubeObject[] | ListItems, meta: ListMeta): Promise<void> {
  const pretty = wantsPretty(h.req, h.query);
  setWarnings(h.res, h.ctx.warnings);
  const source: ListItems = isListItems(list) ? list : { items: list as KubeObject[] };
  const head = { kind: h.scope.listKind, apiVersion: h.scope.apiVersion, metadata: meta };
  // Only the RequestResponse level records a list; a streamed one is read whole for it.
  const audit = h.ctx.audit?.level === 'RequestResponse' ? h.ctx.audit : undefined;
  const stream = { signal: h.ctx.signal };
  if (target.as === '' && target.encoding === 'json' && !pretty) {
    audit?.setResponseObject({ ...head, items: source.items.map((o) => toExternal(h.scope, o)) });
    const encoded = source.encodedItems && servesStoredForm(h.scope) ? source.encodedItems : undefined;
    const items = encoded ?? mapItems(source.items, (o) => JSON.stringify(toExternal(h.scope, o)));
    await writeStreamedBody(h.req, h.res, 200, target.contentType, jsonListPieces(head, items), stream);
    return;
  }
  if (target.as === '' && target.encoding === 'protobuf') {
    audit?.setResponseObject({ ...head, items: source.items.map((o) => toExternal(h.scope, o)) });
    const encoded = encodeListPieces({ ...head, metadata: meta as JsonObject, items: mapItems(source.items, (o) => toExternal(h.scope, o) as unknown as JsonObject) });
    if (encoded) {
      await writeStreamedBody(h.req, h.res, 200, target.contentType, encoded.pieces, stream);
      return;
    }
  }
  const external = source.items.map((o) => toExternal(h.scope, o));
  if (target.as === 'Table') {
    const table = toTable(external, meta, { include: parseIncludeObject(h.query.get('includeObject')), tableVersion: target.metaVersion ?? 'v1', ...tableSource(h) });
    audit?.setResponseObject(table);
    await writeBody(h.req, h.res, 200, target.contentType, encodeBody(table, target.encoding, pretty));
    return;
  }
  if (target.as === 'PartialObjectMetadataList') {
    const partial = asPartialObjectMetadataList(external, meta, target.metaVersion ?? 'v1');
    audit?.setResponseObject(partial);
    await writeBody(h.req, h.res, 200, target.contentType, encodeBody(partial, target.encoding, pretty));
    return;
  }
  const whole = { ...head, items: external };
  audit?.setResponseObject(whole);
  await writeBody(h.req, h.res, 200, target.contentType, encodeBody(whole, target.encoding, pretty));
}

/** A decoded body or patch result, with what strict decoding found before typing. */
export interface DecodedInput {
  readonly value: unknown;
  /** Messages about the input itself (repeated keys in a body or patch), before unknown fields. */
  readonly preMessages?: readonly string[];
  /** JSON paths of repeated keys of the object itself (bodies), merged with unknown fields in document order. */
  readonly duplicateFields?: readonly string[];
  readonly yamlDuplicates?: readonly string[];
  /** Numbers of a JSON body written with a fraction or an exponent, by path (refused in integer fields). */
  readonly numberLiterals?: ReadonlyMap<string, string>;
  /** Object keys come out sorted, as after kube's map-based conversions (YAML bodies, patch results). */
  readonly sortKeys?: boolean;
  /** Leave defaulting out (an apply configuration names only what its manager owns). */
  readonly skipDefaulting?: boolean;
  /**
   * The value is a patch result (kube's patch.go): what does not decode, and what strict field
   * validation refuses, is 422 on the field `patch` with badValue() as its value. A strategic merge
   * patch's result is checked as the unstructured converter checks it (converter: the paths of the
   * patch's numbers written with a fraction or an exponent, float64 to it).
   */
  readonly patch?: { readonly badValue: () => string; readonly converter?: { readonly floats?: ReadonlyMap<string, string> } };
}

/**
 * Turns a decoded body (or a patch result) into the object to store: checks kind and metadata
 * shape, types it against the schema (wrong types are 400; unknown and repeated fields go by
 * fieldValidation), applies the version's defaulting, and converts it to the stored form.
 */
export function decodeExternal(h: HandlerInput, input: DecodedInput, fieldValidation: FieldValidation): KubeObject {
  return toInternal(h.scope, decodeExternalObject(h, input, fieldValidation));
}

/** Like decodeExternal, but leaves the object in the endpoint's version (for managed fields). */
export function decodeExternalObject(h: HandlerInput, input: DecodedInput, fieldValidation: FieldValidation): KubeObject {
  const gvk = { group: apiGroupOf(h.scope.apiVersion), version: versionOf(h.scope.apiVersion), kind: h.scope.kind };
  let obj = asObject(sameSchemaVersion(h, input.sortKeys ? sortKeysDeep(input.value) : input.value), gvk);
  const prefix = cannotBeHandled(gvk.kind, gvk.version);
  const patch = input.patch;
  const raise = patch ? (detail: string): Error => patchResultInvalid(patch.badValue(), detail) : undefined;
  const pre = input.preMessages ?? [];
  const duplicates = input.duplicateFields ?? [];
  let messages: readonly string[];
  if (h.scope.custom) {
    // A custom resource: what its schema does not know is pruned, and reported as unknown fields.
    const decoded = duplicates.length > 0 ? structuredClone(obj) : obj;
    messages = [...pre, ...orderedFieldMessages(decoded, h.scope.custom.prune(obj), duplicates)];
  } else if (hasSchema(gvk) && patch?.converter) {
    // A strategic merge patch's result goes through the unstructured converter, not the JSON decoder.
    const converted = checkFromUnstructured(gvk, obj, patch.converter.floats);
    if (converted.error !== undefined) throw patchResultInvalid(patch.badValue(), converted.error);
    const checked = checkDecode(gvk, obj);
    // What the converter lets through but the store cannot hold (an integer past its Go type's range).
    if (checked.decodeError) throw patchResultInvalid(patch.badValue(), checked.decodeError);
    obj = checked.object as KubeObject;
    messages = [...pre, ...converted.unknownFieldMessages];
  } else if (hasSchema(gvk)) {
    const checked = checkDecode(gvk, obj, input.numberLiterals);
    if (checked.decodeError) throw raise ? raise(checked.decodeError) : newBadRequest(`${prefix}: ${checked.decodeError}`);
    messages = [...pre, ...orderedFieldMessages(obj, checked.unknownFields, duplicates)];
    obj = checked.object as KubeObject;
  } else {
    messages = [...pre, ...orderedFieldMessages(obj, [], duplicates)];
  }
  applyFieldValidation(h.ctx, fieldValidation, prefix, { yamlDuplicates: input.yamlDuplicates ?? [], messages }, raise);
  if (!input.skipDefaulting) h.scope.defaulter?.(obj);
  return obj;
}

/** A body in another apiVersion the endpoint accepts (RestStorage.bodyApiVersions), relabelled as the endpoint's own. */
function sameSchemaVersion(h: HandlerInput, value: unknown): unknown {
  const accepted = h.scope.storage.bodyApiVersions;
  if (!accepted || typeof value !== 'object' || value === null) return value;
  const apiVersion = (value as { apiVersion?: unknown }).apiVersion;
  return typeof apiVersion === 'string' && accepted.includes(apiVersion) ? { ...value, apiVersion: h.scope.apiVersion } : value;
}

/** Reads and decodes a create/update body into the endpoint's version (defaulted, not converted); 415 for unknown content types. */
export async function decodeObjectBody(h: HandlerInput, fieldValidation: FieldValidation): Promise<KubeObject> {
  const encoding = bodyEncoding(h.req.headers['content-type']);
  if (!encoding) throw newUnsupportedMediaType([...acceptedBodyTypes]);
  const raw = await readBody(h.req, undefined, h.res);
  const parsed = parseBodyStrict(raw, encoding);
  return decodeExternalObject(
    h,
    { value: parsed.value, duplicateFields: parsed.duplicateFields, yamlDuplicates: parsed.yamlDuplicates, numberLiterals: parsed.numberLiterals, sortKeys: parsed.fromYaml },
    fieldValidation,
  );
}

function apiGroupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

function versionOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? apiVersion : apiVersion.slice(i + 1);
}

/** Admission attributes for this request. deleteOptions: the parsed DeleteOptions of a DELETE. */
export function admissionAttributes(
  h: HandlerInput,
  operation: AdmissionOperation,
  name: string,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  dryRun: boolean,
  deleteOptions?: DeleteOptions,
): AdmissionAttributes {
  const options = operation === 'DELETE' ? (deleteOptions ? deleteOptionsObject(deleteOptions) : undefined) : writeOptionsObject(h.query, operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions');
  return {
    operation,
    group: h.scope.group,
    version: h.scope.version,
    resource: h.scope.resource,
    subresource: h.scope.subresource,
    kind: h.scope.kind,
    namespace: h.scope.namespaced ? h.ctx.requestInfo.namespace : '',
    name,
    object,
    oldObject,
    dryRun,
    ...(options ? { options } : {}),
    versioned: admissionVersioning(h.scope),
    userInfo: h.ctx.user,
    addAnnotation: annotatorFor(h.ctx),
  };
}

/**
 * The CreateOptions or UpdateOptions kube hands admission for a write, from the query as it decodes
 * them (a patch's PatchOptions become the options of what the patch does; force is not among them).
 */
function writeOptionsObject(query: URLSearchParams, kind: 'CreateOptions' | 'UpdateOptions'): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) out.dryRun = dryRun;
  const fieldManager = query.get('fieldManager');
  if (fieldManager) out.fieldManager = fieldManager;
  const fieldValidation = query.get('fieldValidation');
  if (fieldValidation) out.fieldValidation = fieldValidation;
  return out;
}

/** A DELETE's options as the meta.k8s.io/v1 DeleteOptions object admission sees. */
function deleteOptionsObject(o: DeleteOptions): Record<string, unknown> {
  return {
    kind: 'DeleteOptions',
    apiVersion: 'meta.k8s.io/v1',
    ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
    ...(o.preconditions ? { preconditions: o.preconditions } : {}),
    ...(o.orphanDependents !== undefined ? { orphanDependents: o.orphanDependents } : {}),
    ...(o.propagationPolicy ? { propagationPolicy: o.propagationPolicy } : {}),
    ...(o.dryRun ? { dryRun: ['All'] } : {}),
  };
}

/** The validating-admission hook the store calls with the final object (deleteOptions: a DELETE's). */
export function validatingAdmission(h: HandlerInput, operation: AdmissionOperation, dryRun: boolean, deleteOptions?: DeleteOptions): ValidateObjectFunc {
  return async (ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined) => {
    const name = obj.metadata.name ?? '';
    if (operation === 'DELETE') {
      // kube's AdmissionToValidateObjectDeleteFunc: mutating then validating admission, with the
      // object being deleted as oldObject (mutating plugins see DELETE too, and may refuse it).
      const attrs = admissionAttributes(h, operation, name, undefined, old ?? obj, dryRun, deleteOptions);
      await h.admission.admit(attrs, ctx);
      await h.admission.validate(attrs, ctx);
      return;
    }
    await h.admission.validate(admissionAttributes(h, operation, name, obj, old, dryRun), ctx);
  };
}
