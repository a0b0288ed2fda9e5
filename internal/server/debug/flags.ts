/**
 * /debug/flags (kube's routes.DebugFlags): an index page of the flags that can be changed at run
 * time, and /debug/flags/v, which sets -v from a PUT body ("3") with kube's answers:
 * 200 "successfully set klog.logging.verbosity to 3", 400 "failed set klog.logging.verbosity x:
 * strconv.ParseInt: ..." for a value klog's Level.Set refuses, 406 "unsupported http method" for
 * anything but PUT. The body is the value as is: "3\n" is refused, as kube refuses it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { goQuote } from '../../observability/go-text.js';
import type { KlogLogger } from '../../observability/logging.js';

/** A body larger than this is not a verbosity. */
const maxBodyBytes = 64 * 1024;

const indexPage = `<html>
<head>
<title>/debug/flags/</title>
</head>
<body>
/debug/flags/<br>
<br>
flags:<br>
<table>

<tr>v<br>

</table>
<br>
full flags configurable<br>
</body>
</html>
`;

/** kube's writePlainText: the text and a newline. */
function writePlainText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${text}\n`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBodyBytes) {
        reject(new Error('http: request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/** klog's Level.Set: strconv.ParseInt(value, 10, 32), with Go's errors. */
export function parseKlogLevel(value: string): number {
  if (!/^[+-]?[0-9]+$/.test(value)) throw new Error(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
  const n = Number(value);
  if (n > 2 ** 31 - 1 || n < -(2 ** 31)) throw new Error(`strconv.ParseInt: parsing ${goQuote(value)}: value out of range`);
  return n;
}

/** Serves /debug/flags, /debug/flags/ and /debug/flags/<name> (rest is what follows "/debug/flags"). */
export async function serveDebugFlags(req: IncomingMessage, res: ServerResponse, rest: string, log: KlogLogger): Promise<void> {
  if (rest !== '/v') {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(req.method === 'HEAD' ? undefined : indexPage);
    return;
  }
  if (req.method !== 'PUT') return writePlainText(res, 406, 'unsupported http method');
  let body: string;
  try {
    body = await readBody(req);
  } catch (err) {
    return writePlainText(res, 400, `error reading request body: ${(err as Error).message}`);
  }
  let level: number;
  try {
    level = parseKlogLevel(body);
  } catch (err) {
    return writePlainText(res, 400, `failed set klog.logging.verbosity ${body}: ${(err as Error).message}`);
  }
  log.setVerbosity(level);
  writePlainText(res, 200, `successfully set klog.logging.verbosity to ${body}`);
}
