/**
 * GET /logs/ (kubelet's ServeLogs: Go's http.FileServer over /var/log): a file is sent as it is;
 * a directory is listed as Go lists one (<pre> with a link a name, directories with a trailing
 * slash, sorted by name); a directory asked for without its trailing slash is redirected to it.
 * The path is cleaned first, so nothing outside the log directory can be reached.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, posix } from 'node:path';
import { writeText } from './respond.js';

const types: Record<string, string> = { '.log': 'text/plain; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.json': 'application/json', '.gz': 'application/gzip', '.html': 'text/html; charset=utf-8' };

function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

/** Serves path (what follows /logs) from root. */
export async function serveNodeLogs(req: IncomingMessage, res: ServerResponse, subpath: string, root: string): Promise<void> {
  const clean = posix.normalize(`/${decodeURIComponent(subpath)}`);
  const file = join(root, clean);
  const info = await stat(file).catch(() => undefined);
  if (!info) return writeText(res, 404, '404 page not found\n');
  if (info.isDirectory()) {
    if (!subpath.endsWith('/') && subpath !== '') {
      const location = `${(req.url ?? '').split('?')[0]}/`;
      res.writeHead(301, { location, 'content-type': 'text/html; charset=utf-8' });
      res.end(`<a href="${htmlEscape(location)}">Moved Permanently</a>.\n\n`);
      return;
    }
    const entries = await readdir(file, { withFileTypes: true }).catch(() => undefined);
    if (!entries) return writeText(res, 500, 'Error reading directory\n');
    const lines = entries
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort()
      .map((n) => `<a href="${htmlEscape(encodeURI(n).replace(/\?/g, '%3F').replace(/#/g, '%23'))}">${htmlEscape(n)}</a>\n`);
    const body = `<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n${lines.join('')}</pre>\n`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'text/plain; charset=utf-8', 'content-length': String(info.size), 'last-modified': info.mtime.toUTCString() });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  await new Promise<void>((resolve) => res.on('close', resolve));
}
