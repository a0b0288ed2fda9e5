/**
 * /openapi/v2: the Kubernetes 1.33 OpenAPI v2 document (api/gen/openapi/v2/swagger.json) cut down
 * to what this server serves, as JSON or as gnostic's protobuf (which kubectl fetches before
 * create/replace and for explain). Both representations are built once at construction and
 * served as cached bytes (gzipped once too) with an ETag of their SHA-512 and If-None-Match
 * (304), negotiated on Accept as kube-openapi does: first matching clause wins, nothing → 406.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { newNotAcceptable } from '../../apierrors/factories.js';
import type { ApiInstaller } from '../installer.js';
import { parseAccept } from '../negotiation/media-type.js';
import { gzipThresholdBytes } from '../negotiation/writer.js';
import { encodeOpenApiV2Document } from './gnostic-v2.js';
import { defaultNonResourcePaths, filterSwagger, type SwaggerDocument } from './v2-filter.js';

/**
 * The media type of the gnostic protobuf document. kube-openapi answers with this spelling for
 * both Accept spellings: the "@" of the other is not a valid token character, and client-go
 * (mime.ParseMediaType) rejects a Content-Type carrying it.
 */
export const openApiV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The deprecated Accept spelling kubectl (client-go) still sends; answered as openApiV2ProtobufType. */
export const openApiV2ProtobufDeprecatedType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** Options for the /openapi/v2 handler. */
export interface OpenApiV2Options {
  /** Non-resource paths the server answers, spelled as in the document ("/version/"); see defaultNonResourcePaths. */
  readonly nonResourcePaths?: readonly string[];
}

/** One served encoding of the document. */
interface Representation {
  readonly body: Buffer;
  /** The gzipped body when it is large enough to be worth compressing (kube's 128 KiB threshold). */
  readonly gzipped: Buffer | undefined;
  readonly etag: string;
}

function representation(body: Buffer): Representation {
  return {
    body,
    gzipped: body.length >= gzipThresholdBytes ? gzipSync(body) : undefined,
    // kube-openapi's computeETag: upper-case hex SHA-512, quoted.
    etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`,
  };
}

/** The project root, from dist/internal/endpoints/openapi or internal/endpoints/openapi alike. */
function swaggerPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'api', 'gen', 'openapi', 'v2', 'swagger.json');
    if (existsSync(file)) return file;
    dir = dirname(dir);
  }
  throw new Error('api/gen/openapi/v2/swagger.json not found above the server code');
}

function acceptsGzip(req: IncomingMessage): boolean {
  const h = req.headers['accept-encoding'];
  return typeof h === 'string' && h.split(',').some((part) => part.trim().split(';')[0]?.trim().toLowerCase() === 'gzip');
}

/** Whether an If-None-Match header names etag (or is "*"); weak validators compare equal, as in net/http. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** Serves GET and HEAD /openapi/v2. Construction reads and encodes the document synchronously (call once at start). */
export class OpenApiV2Handler {
  private readonly json: Representation;
  private readonly protobuf: Representation;
  /** What each Accept media type is answered with, in kube-openapi's preference order. */
  private readonly offers: ReadonlyArray<{ type: string; subtype: string; contentType: string; rep: Representation }>;

  constructor(installer: ApiInstaller, options: OpenApiV2Options = {}) {
    const doc = JSON.parse(readFileSync(swaggerPath(), 'utf8')) as SwaggerDocument;
    const served = filterSwagger(doc, installer, options.nonResourcePaths ?? defaultNonResourcePaths);
    this.json = representation(Buffer.from(JSON.stringify(served)));
    this.protobuf = representation(encodeOpenApiV2Document(served));
    this.offers = [
      { type: 'application', subtype: 'json', contentType: 'application/json', rep: this.json },
      { type: 'application', subtype: openApiV2ProtobufDeprecatedType.slice('application/'.length), contentType: openApiV2ProtobufType, rep: this.protobuf },
      { type: 'application', subtype: openApiV2ProtobufType.slice('application/'.length), contentType: openApiV2ProtobufType, rep: this.protobuf },
    ];
  }

  /** The served JSON document's bytes (do not mutate). */
  get jsonBytes(): Buffer {
    return this.json.body;
  }

  /** The served protobuf document's bytes (do not mutate). */
  get protobufBytes(): Buffer {
    return this.protobuf.body;
  }

  /** Serves req when path is /openapi/v2 and the method GET or HEAD; false otherwise. Throws 406 when Accept names nothing servable. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (path !== '/openapi/v2') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    res.setHeader('Vary', 'Accept');
    const offer = this.negotiate(req.headers.accept);
    if (!offer) throw newNotAcceptable(['application/json', openApiV2ProtobufType]);
    const { rep } = offer;
    if (rep.gzipped) res.setHeader('Vary', 'Accept, Accept-Encoding');
    res.setHeader('ETag', rep.etag);
    if (matchesIfNoneMatch(req.headers['if-none-match'], rep.etag)) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    // Written here rather than through writeBody: the gzipped bytes are cached, and writeBody's
    // Vary: Accept-Encoding would replace the Vary: Accept this negotiation needs.
    if (res.headersSent || res.writableEnded) return true;
    const gzip = rep.gzipped !== undefined && acceptsGzip(req);
    const body = gzip ? (rep.gzipped as Buffer) : rep.body;
    res.statusCode = 200;
    res.setHeader('Content-Type', offer.contentType);
    res.setHeader('Cache-Control', 'no-cache, private');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  /** The offer for an Accept header: no header means any; the first clause (by preference) that matches wins. */
  private negotiate(accept: string | undefined): (typeof this.offers)[number] | undefined {
    const clauses = accept === undefined || accept.trim() === '' ? parseAccept('*/*') : parseAccept(accept);
    for (const c of clauses) {
      const offer = this.offers.find((o) => (c.type === '*' || c.type === o.type) && (c.subtype === '*' || c.subtype === o.subtype));
      if (offer) return offer;
    }
    return undefined;
  }
}
