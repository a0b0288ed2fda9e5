/**
 * Media-type parsing and output negotiation for resource endpoints (kube's
 * NegotiateOutputMediaType): which of JSON, YAML and the Table or discovery variants an Accept
 * header asks for, honouring q-values and wildcards; nothing servable is 406.
 */
import { newNotAcceptable } from '../../apierrors/factories.js';

/** One parsed media range from an Accept or Content-Type header. */
export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

/** Parses one media type ("application/json;as=Table;v=v1") or undefined when malformed. */
export function parseMediaType(text: string): MediaRange | undefined {
  const parts = text.split(';');
  const full = (parts[0] ?? '').trim().toLowerCase();
  const slash = full.indexOf('/');
  if (slash <= 0 || slash === full.length - 1) return full === '*' ? { type: '*', subtype: '*', params: {}, q: 1 } : undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of parts.slice(1)) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    if (k === 'q') {
      const n = Number(v);
      q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 1;
    } else params[k] = v;
  }
  return { type: full.slice(0, slash), subtype: full.slice(slash + 1), params, q };
}

/** Parses an Accept header into ranges sorted by preference (q, then specificity, then order). */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || header.trim() === '') return [];
  const ranges = splitHeader(header)
    .map((t, i) => ({ r: parseMediaType(t), i }))
    .filter((x): x is { r: MediaRange; i: number } => x.r !== undefined && x.r.q > 0);
  const specificity = (r: MediaRange): number => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2 + Object.keys(r.params).length);
  ranges.sort((a, b) => b.r.q - a.r.q || specificity(b.r) - specificity(a.r) || a.i - b.i);
  return ranges.map((x) => x.r);
}

/** Splits a header on commas that are not inside quotes. */
function splitHeader(header: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The serialisations a resource endpoint can write. */
export type Encoding = 'json' | 'yaml' | 'protobuf';

/** The Content-Type of an encoding. */
export function contentTypeOf(encoding: Encoding): string {
  return encoding === 'yaml' ? 'application/yaml' : encoding === 'protobuf' ? protobufMediaType : 'application/json';
}

/** Kubernetes Protobuf (the k8s\0 envelope). */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

/** The shapes a resource response can take: the object itself, or one of meta.k8s.io's views of it. */
export type OutputShape = '' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** What a resource response should be: the encoding and the shape (the object, a Table, or metadata only). */
export interface OutputTarget {
  readonly encoding: Encoding;
  /** "" for the object itself; otherwise the meta.k8s.io kind to transform it into (version in metaVersion). */
  readonly as: OutputShape;
  readonly metaVersion?: 'v1' | 'v1beta1';
  /** The Content-Type to answer with (the plain media type: kube adds no as=/g=/v= to it). */
  readonly contentType: string;
}

/** Media types a resource endpoint serves, in kube's order. */
export const servedMediaTypes = ['application/json', 'application/yaml', protobufMediaType] as const;

function encodingOf(r: MediaRange): Encoding | undefined {
  if (r.type === '*' && r.subtype === '*') return 'json';
  if (r.type !== 'application') return undefined;
  if (r.subtype === '*' || r.subtype === 'json') return 'json';
  if (r.subtype === 'yaml') return 'yaml';
  if (r.subtype === 'vnd.kubernetes.protobuf') return 'protobuf';
  return undefined;
}

/**
 * The shape one Accept clause asks for, or undefined when the endpoint cannot serve it (kube's
 * AllowsMediaTypeTransform). Any of as=, g= or v= makes the clause a conversion request, which
 * only meta.k8s.io v1 and v1beta1 Table (JSON and YAML) and PartialObjectMetadata[List] (every
 * encoding) satisfy; stream= other than "watch" is refused too.
 */
function shapeOf(r: MediaRange, encoding: Encoding, allowTable: boolean): { as: OutputShape; metaVersion?: 'v1' | 'v1beta1' } | undefined {
  const stream = r.params.stream;
  if (stream !== undefined && stream !== 'watch') return undefined;
  const { as, g, v } = r.params;
  if (as === undefined && g === undefined && v === undefined) return { as: '' };
  if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) return undefined;
  if (as === 'Table') return allowTable && encoding !== 'protobuf' ? { as, metaVersion: v } : undefined;
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { as, metaVersion: v };
  return undefined;
}

/**
 * Picks the output for a resource request. Accept clauses asking for a representation the
 * endpoint cannot produce are skipped; when none is left the request is 406 NotAcceptable.
 * allowTable is false for endpoints without a table convertor; allowProtobuf is false for kinds
 * without a Protobuf message (it does not restrict the meta.k8s.io shapes, which have one).
 */
export function negotiateOutput(accept: string | undefined, allowTable = true, allowProtobuf = true): OutputTarget {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return { encoding: 'json', as: '', contentType: 'application/json' };
  for (const r of ranges) {
    const encoding = encodingOf(r);
    if (!encoding) continue;
    const shape = shapeOf(r, encoding, allowTable);
    if (!shape) continue;
    if (shape.as === '' && encoding === 'protobuf' && !allowProtobuf) continue;
    return { encoding, ...shape, contentType: contentTypeOf(encoding) };
  }
  throw newNotAcceptable(allowProtobuf ? [...servedMediaTypes] : ['application/json', 'application/yaml']);
}

/** The encodings a request body may come in (Protobuf is read, not yet written). */
export type BodyEncoding = Encoding | 'protobuf';

/** The media types request bodies are accepted in, as kube's 415 lists them. */
export const acceptedBodyTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;

/** The request body encoding for a Content-Type (JSON when absent); undefined when unsupported. */
export function bodyEncoding(contentType: string | undefined): BodyEncoding | undefined {
  if (!contentType || contentType.trim() === '') return 'json';
  const r = parseMediaType(contentType);
  if (!r || r.type !== 'application') return undefined;
  if (r.subtype === 'json') return 'json';
  if (r.subtype === 'yaml') return 'yaml';
  if (r.subtype === 'vnd.kubernetes.protobuf') return 'protobuf';
  return undefined;
}
