/**
 * Serves the service account issuer discovery documents (kube's OpenIDMetadataServer) on GET:
 * /.well-known/openid-configuration as application/json and /openid/v1/jwks as
 * application/jwk-set+json, both with "Cache-Control: public, max-age=3600". They are non-resource
 * paths behind the normal filters (RBAC grants them to system:service-account-issuer-discovery).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwksPath, openIdConfigPath, type OpenIdMetadata } from '../serviceaccount/openid-metadata.js';

const cacheControl = 'public, max-age=3600';

/** The discovery endpoints; serve() is synchronous and cheap (the bodies are rendered once). */
export class OpenIdMetadataHandler {
  private readonly config: Buffer;
  private readonly keyset: Buffer;

  constructor(metadata: OpenIdMetadata) {
    this.config = Buffer.from(metadata.configJson);
    this.keyset = Buffer.from(metadata.keysetJson);
  }

  /** Answers a GET of either path and returns true; false for anything else. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (req.method !== 'GET') return false;
    let body: Buffer;
    let type: string;
    if (path === openIdConfigPath) {
      body = this.config;
      type = 'application/json';
    } else if (path === jwksPath) {
      body = this.keyset;
      type = 'application/jwk-set+json';
    } else {
      return false;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('Content-Length', body.length);
    res.end(body);
    return true;
  }
}
