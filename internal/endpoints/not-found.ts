/**
 * The 404 of a path nothing serves, as kube-apiserver 1.33 answers it: inside a group version it
 * serves, go-restful's Status ("the server could not find the requested resource"); anywhere else
 * under /api and /apis (an unknown group, or a group version --runtime-config turned off), the
 * last delegate's plain-text "404 page not found". Only reached once a request is not served, so
 * it costs nothing on the hot path.
 */
import { newPathNotFound } from '../apierrors/factories.js';
import { StatusError } from '../apierrors/status-error.js';

/** A 404 written as Go's http.NotFound (text/plain "404 page not found"); audited and counted as a 404. */
export class PageNotFoundError extends StatusError {
  constructor() {
    super(404, 'NotFound', '404 page not found');
  }
}

/** Whether a group version is served. */
export interface ServedGroupVersions {
  servesGroupVersion(group: string, version: string): boolean;
}

/** The group version a path under /api or /apis names, or undefined when it names none. */
function groupVersionOf(path: string): { group: string; version: string } | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'api' && parts.length >= 2) return { group: '', version: parts[1] as string };
  if (parts[0] === 'apis' && parts.length >= 3) return { group: parts[1] as string, version: parts[2] as string };
  return undefined;
}

/** The 404 for a path under /api or /apis that nothing answered. */
export function notFoundFor(served: ServedGroupVersions, path: string): StatusError {
  const gv = groupVersionOf(path);
  return gv && served.servesGroupVersion(gv.group, gv.version) ? newPathNotFound() : new PageNotFoundError();
}

/** Writes Go's http.NotFound answer. */
export function writePageNotFound(res: { statusCode: number; setHeader(name: string, value: string): unknown; end(body?: string): unknown }, head = false): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(head ? undefined : '404 page not found\n');
}
