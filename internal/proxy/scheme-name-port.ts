/**
 * The names a proxy subresource is addressed by (kube's utilnet.SplitSchemeNamePort):
 * "name", "name:port" or "scheme:name:port", with scheme http, https or empty.
 */

/** The parts of a proxy name, or undefined when it is not one. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) name = parts[0] as string;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (name === '' || !['', 'http', 'https'].includes(scheme)) return undefined;
  return { scheme, name, port };
}

/** "host:port" with IPv6 hosts bracketed (Go's net.JoinHostPort); the host alone when port is "". */
export function joinHostPort(host: string, port: string): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port === '' ? h : `${h}:${port}`;
}

/** kube's net.JoinPreservingTrailingSlash: the two paths joined, ending in "/" when elem does. */
export function joinPreservingTrailingSlash(base: string, elem: string): string {
  // Go's path.Join of nothing is "" (the proxy then redirects to add the slash).
  if (base === '' && elem === '') return '';
  const joined = `/${[...base.split('/'), ...elem.split('/')].filter((s) => s !== '').join('/')}`;
  return elem.endsWith('/') && !joined.endsWith('/') ? `${joined}/` : joined;
}
