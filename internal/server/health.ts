/**
 * Health endpoints as kube-apiserver serves them (k8s.io/apiserver/pkg/server/healthz): /healthz,
 * /livez and /readyz run their checks; `?verbose` lists each as `[+]name ok`, `?exclude=<name>`
 * (repeatable) skips one (`[+]name excluded: ok`; an unknown name gets a `warn:` line); a failing
 * check is `[-]name failed: reason withheld` and makes the answer 500 `<endpoint> check failed`,
 * with the reasons in the log only. /<endpoint>/<check> runs one check and shows its reason.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../observability/logging.js';

/** A named check: resolves when healthy, rejects (or throws) with the reason otherwise. */
export interface HealthCheck {
  readonly name: string;
  check(): Promise<void> | void;
}

/** The three endpoints' check lists, in the order they are reported. */
export interface HealthEndpoints {
  readonly healthz: readonly HealthCheck[];
  readonly livez: readonly HealthCheck[];
  readonly readyz: readonly HealthCheck[];
}

type EndpointName = keyof HealthEndpoints;

async function run(check: HealthCheck): Promise<string | undefined> {
  try {
    await check.check();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Go's http.Error: the text and a newline, as plain text the browser must not sniff. */
function httpError(res: ServerResponse, code: number, text: string): void {
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(`${text}\n`);
}

/** The endpoint and check a path names, or undefined when it is no health path. */
function route(endpoints: HealthEndpoints, path: string): { endpoint: EndpointName; check?: HealthCheck } | undefined {
  const slash = path.indexOf('/', 1);
  const head = slash < 0 ? path.slice(1) : path.slice(1, slash);
  if (head !== 'healthz' && head !== 'livez' && head !== 'readyz') return undefined;
  if (slash < 0) return { endpoint: head };
  // Every check has its own exact path (names may hold slashes: poststarthook/rbac/bootstrap-roles).
  const name = path.slice(slash + 1);
  const check = endpoints[head].find((c) => c.name === name);
  return check ? { endpoint: head, check } : undefined;
}

const quoted = (names: readonly string[]): string => names.map((n) => JSON.stringify(n)).join(',');

/**
 * Serves a health path (any method, as kube's mux does); returns false when path is not one (an
 * unknown check's path included: the caller answers 404). Failures are logged at -v=2.
 */
export async function serveHealth(
  endpoints: HealthEndpoints,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  log?: Logger,
): Promise<boolean> {
  const target = route(endpoints, path);
  if (target === undefined) return false;
  if (target.check) {
    const failure = await run(target.check);
    if (failure !== undefined) {
      httpError(res, 500, `internal server error: ${failure}`);
      return true;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('ok');
    return true;
  }
  const name = target.endpoint;
  const excluded = new Set(query.getAll('exclude'));
  const checks = endpoints[name];
  const failures = await Promise.all(checks.map((c) => (excluded.has(c.name) ? undefined : run(c))));
  let output = '';
  let logged = '';
  const failed: string[] = [];
  checks.forEach((c, i) => {
    if (excluded.delete(c.name)) {
      output += `[+]${c.name} excluded: ok\n`;
      return;
    }
    const failure = failures[i];
    if (failure === undefined) {
      output += `[+]${c.name} ok\n`;
      return;
    }
    // The reason stays out of the answer (these paths are public) and goes to the log.
    output += `[-]${c.name} failed: reason withheld\n`;
    logged += `[-]${c.name} failed: ${failure}\n`;
    failed.push(c.name);
  });
  if (excluded.size > 0) {
    const unknown = quoted([...excluded].sort());
    output += `warn: some health checks cannot be excluded: no matches for ${unknown}\n`;
    log?.v(6, `cannot exclude some health checks, no health checks are installed matching ${unknown}`);
  }
  if (failed.length > 0) {
    log?.v(2, `${failed.join(',')} check failed: ${name}\n${logged}`);
    httpError(res, 500, `${output}${name} check failed`);
    return true;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(query.has('verbose') ? `${output}${name} check passed\n` : 'ok');
  return true;
}
