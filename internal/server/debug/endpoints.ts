/**
 * The debug endpoints kube-apiserver installs with --profiling (and always on --debug-socket-path):
 * /debug/pprof (a 302 to /debug/pprof/), /debug/pprof/* (pprof.ts) and /debug/flags, /debug/flags/v
 * (flags.ts). On the secure port they come after authentication and authorization, like any
 * non-resource URL; on the debug socket nothing guards them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KlogLogger } from '../../observability/logging.js';
import { serveDebugFlags } from './flags.js';
import { servePprof } from './pprof.js';

/** What the endpoints need. */
export interface DebugEndpointsDeps {
  /** The logger whose -v /debug/flags/v changes. */
  readonly log: KlogLogger;
  /** Aborted when the server shuts down: a CPU profile in progress ends then. */
  readonly shutdown?: AbortSignal;
}

/** The /debug/pprof and /debug/flags endpoints. */
export class DebugEndpoints {
  constructor(private readonly deps: DebugEndpointsDeps) {}

  /**
   * Serves a debug path (decoded, without the query); resolves false for any other path, leaving
   * the response untouched.
   */
  async serve(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (path === '/debug/pprof') {
      // Go's http.Redirect with 302 Found.
      res.statusCode = 302;
      res.setHeader('Location', '/debug/pprof/');
      if (req.method === 'GET' || req.method === 'HEAD') res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(req.method === 'GET' ? '<a href="/debug/pprof/">Found</a>.\n\n' : undefined);
      return true;
    }
    if (path.startsWith('/debug/pprof/')) {
      await servePprof(req, res, path.slice('/debug/pprof/'.length), query, this.deps.shutdown);
      return true;
    }
    if (path === '/debug/flags' || path.startsWith('/debug/flags/')) {
      await serveDebugFlags(req, res, path.slice('/debug/flags'.length), this.deps.log);
      return true;
    }
    return false;
  }
}
