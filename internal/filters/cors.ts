/**
 * The CORS filter (kube's WithCORS with its defaults), on when --cors-allowed-origins names
 * patterns. A request whose Origin matches one of them (a regular expression searched anywhere in
 * the header, as Go's MatchString does: --cors-allowed-origins validation makes operators pin
 * them) gets Access-Control-Allow-* headers naming that origin, credentials allowed; a matching
 * preflight (OPTIONS) is answered 204 right here, before authentication, so it needs no
 * credentials. A request without an Origin, or with one that matches nothing, goes on unchanged
 * and without CORS headers (the browser then refuses the response to the page).
 */
import type { Filter } from './interface.js';

const allowMethods = 'POST, GET, OPTIONS, PUT, DELETE, PATCH';
const allowHeaders = 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since';
const exposeHeaders = 'Date';

/**
 * Compiles one --cors-allowed-origins pattern (Go RE2 syntax) as a JavaScript RegExp: a leading
 * Go flag group of i, m and s becomes the RegExp's flags; the rest is read as JavaScript syntax,
 * which agrees with RE2 on what origin patterns use. Throws on a pattern that does not compile.
 */
export function compileOriginPattern(pattern: string): RegExp {
  const flags = /^\(\?([ims]+)\)/.exec(pattern);
  try {
    return flags ? new RegExp(pattern.slice(flags[0].length), [...new Set(flags[1])].join('')) : new RegExp(pattern);
  } catch (err) {
    throw new Error(`error parsing regexp: ${(err as Error).message}`);
  }
}

/** Builds the CORS filter for the allowed origin patterns (already validated); undefined when there are none (CORS off). */
export function withCORS(allowedOrigins: readonly string[]): Filter | undefined {
  if (allowedOrigins.length === 0) return undefined;
  const patterns = allowedOrigins.map(compileOriginPattern);
  return (req, res) => {
    const origin = req.headers.origin;
    if (!origin || !patterns.some((re) => re.test(origin))) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', allowMethods);
    res.setHeader('Access-Control-Allow-Headers', allowHeaders);
    res.setHeader('Access-Control-Expose-Headers', exposeHeaders);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.statusCode = 204;
      res.end();
    }
  };
}
