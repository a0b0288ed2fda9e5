/**
 * Health endpoints as kube-apiserver serves them: /healthz, /livez and /readyz with named
 * checks, `?verbose` listing each check, `?exclude=<name>` skipping some, and /<endpoint>/<check>
 * for one check. A failing check makes the endpoint answer 500 with its name marked [-].
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A named check: resolves when healthy, rejects (or throws) with the reason otherwise. */
export interface HealthCheck {
  readonly name: string;
  check(): Promise<void> | void;
}

/** The three endpoints' check lists. */
export interface HealthEndpoints {
  readonly healthz: readonly HealthCheck[];
  readonly livez: readonly HealthCheck[];
  readonly readyz: readonly HealthCheck[];
}

const checkTimeoutMs = 5000;

async function run(check: HealthCheck): Promise<string | undefined> {
  try {
    await Promise.race([
      Promise.resolve().then(() => check.check()),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), checkTimeoutMs).unref()),
    ]);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

function write(res: ServerResponse, code: number, body: string): void {
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(body);
}

/** Serves a health path; returns false when path is not one. */
export async function serveHealth(
  endpoints: HealthEndpoints,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<boolean> {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+?))?\/?$/.exec(path);
  if (!m) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const endpoint = m[1] as keyof HealthEndpoints;
  const checks = endpoints[endpoint];
  const single = m[2];
  if (single) {
    const check = checks.find((c) => c.name === single);
    if (!check) {
      write(res, 404, '404 page not found\n');
      return true;
    }
    const failure = await run(check);
    if (failure) write(res, 500, `internal server error: ${failure}\n`);
    else write(res, 200, 'ok');
    return true;
  }
  const excluded = new Set(query.getAll('exclude'));
  const verbose = query.has('verbose');
  const results = await Promise.all(
    checks.filter((c) => !excluded.has(c.name)).map(async (c) => ({ name: c.name, failure: await run(c) })),
  );
  const failed = results.some((r) => r.failure !== undefined);
  if (!failed && !verbose) {
    write(res, 200, 'ok');
    return true;
  }
  const lines = results.map((r) => (r.failure === undefined ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
  for (const name of excluded) if (checks.some((c) => c.name === name)) lines.push(`[+]${name} excluded: ok`);
  lines.push(failed ? `${endpoint} check failed` : `${endpoint} check passed`);
  write(res, failed ? 500 : 200, `${lines.join('\n')}\n`);
  return true;
}
