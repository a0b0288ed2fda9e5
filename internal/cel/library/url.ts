/**
 * Kubernetes' URL library: url(string) for absolute URIs and absolute paths (Go's
 * url.ParseRequestURI), isURL(string), and getScheme(), getHost(), getHostname(), getPort(),
 * getEscapedPath(), getQuery() on kubernetes.URL values.
 */
import { CelScalar, celFunc, celMethod, listType, mapType, type CelFunc } from '@bufbuild/cel';
import { KubeDesc, KubeType, kubeValue, textOf } from '../types.js';

const { STRING, BOOL } = CelScalar;
const URL_T = KubeType.URL;

/** The parts of a request URI. */
export interface ParsedUrl {
  readonly scheme: string;
  readonly host: string;
  readonly path: string;
  readonly rawQuery: string;
}

const uriPattern = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#.*)?$/;

function unescape(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new Error(`invalid URL escape in ${JSON.stringify(s)}`);
  }
}

/** Parses s as Go's url.ParseRequestURI does; throws with kube's conversion message. */
export function parseRequestUri(s: string): ParsedUrl {
  const fail = () => new Error(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: invalid URI for request`);
  const m = uriPattern.exec(s);
  if (!m || /[\x00-\x1f\x7f]/.test(s)) throw fail();
  const [, scheme = '', host, path = '', rawQuery = ''] = m;
  if (!scheme && !path.startsWith('/')) throw fail();
  if (scheme && host === undefined && !path.startsWith('/')) {
    if (path === '') throw fail();
  }
  if (host !== undefined && /[^a-zA-Z0-9\-._~!$&'()*+,;=:@[\]%]/.test(host)) throw fail();
  if (host !== undefined && !/:[0-9]*$|^[^:]*$|\]$/.test(host.slice(host.lastIndexOf('@') + 1))) throw fail();
  return { scheme, host: host ?? '', path: unescape(path), rawQuery };
}

function hostname(host: string): string {
  const h = host.includes('@') ? host.slice(host.lastIndexOf('@') + 1) : host;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(1, end);
  }
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

function port(host: string): string {
  const h = host.includes('@') ? host.slice(host.lastIndexOf('@') + 1) : host;
  const end = h.startsWith('[') ? h.indexOf(']') + 1 : 0;
  const colon = h.indexOf(':', end);
  return colon < 0 ? '' : h.slice(colon + 1);
}

/** Go's url.EscapedPath for an unescaped path. */
function escapedPath(path: string): string {
  return encodeURI(path).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

function parseQuery(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const decode = (x: string) => {
      try {
        return decodeURIComponent(x.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    const v = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    const list = out.get(k) ?? [];
    list.push(v);
    out.set(k, list);
  }
  return out;
}

const parsed = (v: unknown) => parseRequestUri(textOf(v));

/** The URL library's functions. */
export const urlLibrary: CelFunc[] = [
  celFunc('url', [STRING], URL_T, (s) => {
    parseRequestUri(s);
    return kubeValue(KubeDesc.URL, { value: s });
  }),
  celFunc('isURL', [STRING], BOOL, (s) => {
    try {
      parseRequestUri(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('getScheme', URL_T, [], STRING, function () {
    return parsed(this).scheme;
  }),
  celMethod('getHost', URL_T, [], STRING, function () {
    return parsed(this).host;
  }),
  celMethod('getHostname', URL_T, [], STRING, function () {
    return hostname(parsed(this).host);
  }),
  celMethod('getPort', URL_T, [], STRING, function () {
    return port(parsed(this).host);
  }),
  celMethod('getEscapedPath', URL_T, [], STRING, function () {
    return escapedPath(parsed(this).path);
  }),
  celMethod('getQuery', URL_T, [], mapType(STRING, listType(STRING)), function () {
    return parseQuery(parsed(this).rawQuery);
  }),
];
