/**
 * The authorization fuzz campaign's HTTP side: a request described by method, resource or path,
 * its authorization attributes as kube's request-info parsing derives them from the URL, the
 * 403 message kube writes when they are denied, and one HTTPS call that carries repeated headers
 * and stops reading at the response head (so an allowed watch does not hang the test).
 */
import { request as httpsRequest } from 'node:https';
import type { RequestAttributes, UserInfo } from './rbac-reference.js';

/** A resource the server serves (or, for example.com, does not): group, version, namespaced. */
export interface ServedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly subresources: readonly string[];
}

/** One HTTP request of the campaign, before identity and impersonation are added. */
export type HttpTarget =
  | {
      readonly kind: 'resource';
      readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      readonly watch: boolean;
      readonly served: ServedResource;
      readonly namespace: string;
      readonly name: string;
      readonly subresource: string;
      /** metadata.name=<this> as a field selector on a list or watch ('' for none). */
      readonly fieldName: string;
      /** The legacy /watch/ or /proxy/ path segment before the resource, which sets the verb whatever the method. */
      readonly special?: 'watch' | 'proxy';
      /**
       * How the query and path are spelled: bit 0-1 the field selector's form (name=, name==, after
       * another term, or name!= which names nothing), bit 2 watch=1 for watch=true, bit 3 the name's
       * '-' percent-encoded in the path (the authorized name is the decoded one).
       */
      readonly variant?: number;
    }
  | { readonly kind: 'nonResource'; readonly method: 'GET' | 'HEAD' | 'POST'; readonly path: string };

/** The path (with query) of target, built so kube's request-info parsing gives attributesOf(target). */
export function targetPath(t: HttpTarget): string {
  if (t.kind === 'nonResource') return t.path;
  const prefix = t.served.group === '' ? `/api/${t.served.version}` : `/apis/${t.served.group}/${t.served.version}`;
  let path: string;
  if (t.special) path = `${prefix}/${t.special}${t.served.resource === 'namespaces' ? '' : t.namespace ? `/namespaces/${t.namespace}` : ''}/${t.served.resource}`;
  else if (t.served.resource === 'namespaces') path = `${prefix}/namespaces`;
  else path = `${prefix}${t.namespace ? `/namespaces/${t.namespace}` : ''}/${t.served.resource}`;
  const v = t.variant ?? 0;
  const name = v & 8 ? t.name.replace(/-/g, '%2D') : t.name;
  if (t.name) path += `/${name}${t.subresource ? `/${t.subresource}` : ''}`;
  const q = new URLSearchParams();
  const read = t.method === 'GET' || t.method === 'HEAD';
  if (read && t.watch) q.set('watch', v & 4 ? '1' : 'true');
  const selectors = [`metadata.name=${t.fieldName}`, `metadata.name==${t.fieldName}`, `metadata.namespace=ns9,metadata.name=${t.fieldName}`, `metadata.name!=${t.fieldName}`];
  if (read && !t.name && t.fieldName) q.set('fieldSelector', selectors[v & 3] as string);
  // Writes are dry runs, so an allowed one changes nothing; a connect subresource refuses dryRun after authorization.
  if (!read) q.set('dryRun', 'All');
  if (t.method === 'DELETE' && !t.name) q.set('labelSelector', 'fz-never=1');
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * The attributes kube's request-info parsing derives for target, for user: the verb from the
 * method (GET is get, list or watch; DELETE is delete or deletecollection), a namespace object's
 * own name as its namespace, and a list's or watch's metadata.name field selector as its name.
 */
export function attributesOf(t: HttpTarget, user: UserInfo): RequestAttributes {
  // The authorized path is the decoded URL path, without the query.
  if (t.kind === 'nonResource') return { kind: 'nonResource', user, verb: t.method.toLowerCase(), path: decodeURIComponent(t.path.split('?')[0] as string) };
  const verbs = { POST: 'create', PUT: 'update', PATCH: 'patch' } as const;
  let verb: string;
  // The watch parameter only matters to a GET without a name (with one it stays a get).
  if (t.special) verb = t.special;
  else if (t.method === 'GET' || t.method === 'HEAD') verb = t.name ? 'get' : t.watch ? 'watch' : 'list';
  else if (t.method === 'DELETE') verb = t.name ? 'delete' : 'deletecollection';
  else verb = verbs[t.method];
  const namespace = t.served.resource === 'namespaces' ? t.name : t.namespace;
  const selectorNames = ((t.variant ?? 0) & 3) !== 3;
  const name = t.name || ((t.method === 'GET' || t.method === 'HEAD') && !t.special && selectorNames ? t.fieldName : '');
  return { kind: 'resource', user, verb, apiGroup: t.served.group, resource: t.served.resource, subresource: t.name ? t.subresource : '', name, namespace };
}

/** The message of kube's 403 for attributes a (its authorizer reason, if any, follows after ': '). */
export function forbiddenMessage(a: RequestAttributes): string {
  const who = `User ${JSON.stringify(a.user.name)}`;
  if (a.kind === 'nonResource') return `forbidden: ${who} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
  const reason = `${who} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${scope}`;
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  return a.name ? `${qualified} ${JSON.stringify(a.name)} is forbidden: ${reason}` : `${qualified} is forbidden: ${reason}`;
}

/** What came back: the status and the head of the body. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * One HTTPS request; resolves with the status and up to 4 KiB of body. A 200 answer to a watch
 * (watch true) is cut after its response head (its body would never end).
 */
export function sendHttp(port: number, ca: string, method: string, path: string, headers: Record<string, string | string[]>, body: string | undefined, watch: boolean): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string | string[]> = { ...headers };
    if (body !== undefined) {
      h['content-length'] = String(Buffer.byteLength(body));
      h['content-type'] ??= method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    }
    const req = httpsRequest({ host: '127.0.0.1', port, path, method, headers: h, ca, servername: 'localhost' }, (res) => {
      const status = res.statusCode ?? 0;
      if (status === 200 && watch) {
        res.destroy();
        req.destroy();
        resolve({ status, body: '' });
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (text.length < 4096) text += c;
      });
      res.on('end', () => resolve({ status, body: text.slice(0, 4096) }));
      res.on('error', reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
