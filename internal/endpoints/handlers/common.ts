/**
 * What every verb handler shares: the handler input, writing objects and lists in the negotiated
 * representation (JSON, YAML or Table), decoding bodies, and building admission attributes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject, ListMeta, Status } from '../../../api/meta/types.js';
import type { AdmissionChain } from '../../admission/chain.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../admission/interface.js';
import { newBadRequest, newUnsupportedMediaType } from '../../apierrors/factories.js';
import type { ValidateObjectFunc } from '../../registry/interface.js';
import { addWarning, type RequestContext } from '../../request/context.js';
import { asObject, parseBody, readBody } from '../negotiation/body.js';
import { acceptedBodyTypes, bodyEncoding, negotiateOutput, type OutputTarget } from '../negotiation/media-type.js';
import { parseIncludeObject, toTable } from '../negotiation/table.js';
import { encodeBody, setWarnings, wantsPretty, writeBody } from '../negotiation/writer.js';
import { toExternal, toInternal, type ResourceScope } from '../scope.js';
import { checkDecode, hasSchema, strictDecodingErrorMessage, unknownFieldMessages } from '../../validation/schema/index.js';
import type { FieldValidation } from './write-options.js';

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
  /** Aborted when the server begins to shut down: watches end cleanly. */
  readonly shutdown: AbortSignal;
  /** True for the deprecated /watch/ paths. */
  readonly watchPath: boolean;
}

/** A verb handler. Throws StatusErrors; the dispatcher writes them. */
export type Handler = (h: HandlerInput) => Promise<void>;

/** Negotiates the output first, as kube does, so a 406 happens before any side effect. */
export function outputFor(h: HandlerInput): OutputTarget {
  return negotiateOutput(h.req.headers.accept, true);
}

function isStatus(obj: unknown): obj is Status {
  return typeof obj === 'object' && obj !== null && (obj as { kind?: unknown }).kind === 'Status';
}

/** Writes one stored object (converted to the endpoint's version) or a Status with code. */
export async function respondObject(h: HandlerInput, target: OutputTarget, code: number, obj: KubeObject | Status): Promise<void> {
  const pretty = wantsPretty(h.req, h.query);
  setWarnings(h.res, h.ctx.warnings);
  if (isStatus(obj)) {
    const ct = target.encoding === 'yaml' ? 'application/yaml' : 'application/json';
    await writeBody(h.req, h.res, code, ct, encodeBody(obj, target.encoding, pretty));
    return;
  }
  const external = toExternal(h.scope, obj);
  if (target.as === 'Table') {
    const table = toTable([external], undefined, { include: parseIncludeObject(h.query.get('includeObject')), tableVersion: target.tableVersion ?? 'v1' });
    await writeBody(h.req, h.res, code, target.contentType, encodeBody(table, 'json', pretty));
    return;
  }
  await writeBody(h.req, h.res, code, target.contentType, encodeBody(external, target.encoding, pretty));
}

/** Writes a list of stored objects as <Kind>List (or a Table). */
export async function respondList(h: HandlerInput, target: OutputTarget, items: readonly KubeObject[], meta: ListMeta): Promise<void> {
  const pretty = wantsPretty(h.req, h.query);
  setWarnings(h.res, h.ctx.warnings);
  const external = items.map((o) => toExternal(h.scope, o));
  if (target.as === 'Table') {
    const table = toTable(external, meta, { include: parseIncludeObject(h.query.get('includeObject')), tableVersion: target.tableVersion ?? 'v1' });
    await writeBody(h.req, h.res, 200, target.contentType, encodeBody(table, 'json', pretty));
    return;
  }
  const list = { kind: h.scope.listKind, apiVersion: h.scope.apiVersion, metadata: meta, items: external };
  await writeBody(h.req, h.res, 200, target.contentType, encodeBody(list, target.encoding, pretty));
}

/**
 * Turns a decoded body (or a patch result) into the object to store: checks kind and metadata
 * shape, applies the version's defaulting, and converts it to the stored form.
 */
export function decodeExternal(h: HandlerInput, value: unknown, fieldValidation: FieldValidation): KubeObject {
  const gvk = { group: apiGroupOf(h.scope.apiVersion), version: versionOf(h.scope.apiVersion), kind: h.scope.kind };
  let obj = asObject(value, gvk);
  if (hasSchema(gvk)) {
    // kube's typed decoding: values of the wrong type are 400, unknown fields are dropped and
    // reported as fieldValidation says.
    const checked = checkDecode(gvk, obj);
    const cannot = `${gvk.kind} in version "${gvk.version}" cannot be handled as a ${gvk.kind}`;
    if (checked.decodeError) throw newBadRequest(`${cannot}: ${checked.decodeError}`);
    if (checked.unknownFields.length > 0) {
      if (fieldValidation === 'Strict') throw newBadRequest(`${cannot}: ${strictDecodingErrorMessage(checked.unknownFields)}`);
      if (fieldValidation === 'Warn') for (const m of unknownFieldMessages(checked.unknownFields)) addWarning(h.ctx, m);
    }
    obj = checked.object as KubeObject;
  }
  h.scope.defaulter?.(obj);
  return toInternal(h.scope, obj);
}

/** Reads and decodes a create/update body into the stored form; 415 for unknown content types. */
export async function decodeObjectBody(h: HandlerInput, fieldValidation: FieldValidation): Promise<KubeObject> {
  const encoding = bodyEncoding(h.req.headers['content-type']);
  if (!encoding) throw newUnsupportedMediaType([...acceptedBodyTypes]);
  const raw = await readBody(h.req);
  return decodeExternal(h, parseBody(raw, encoding), fieldValidation);
}

function apiGroupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

function versionOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? apiVersion : apiVersion.slice(i + 1);
}

/** Admission attributes for this request. */
export function admissionAttributes(
  h: HandlerInput,
  operation: AdmissionOperation,
  name: string,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  dryRun: boolean,
): AdmissionAttributes {
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
    userInfo: h.ctx.user,
  };
}

/** The validating-admission hook the store calls with the final object. */
export function validatingAdmission(h: HandlerInput, operation: AdmissionOperation, dryRun: boolean): ValidateObjectFunc {
  return async (ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined) => {
    const name = obj.metadata.name ?? '';
    const attrs =
      operation === 'DELETE'
        ? admissionAttributes(h, operation, name, undefined, old ?? obj, dryRun)
        : admissionAttributes(h, operation, name, obj, old, dryRun);
    await h.admission.validate(attrs, ctx);
  };
}
