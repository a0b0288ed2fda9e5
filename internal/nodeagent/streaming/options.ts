/**
 * The kubelet streaming endpoints' query (kubelet's remotecommand NewOptions and portforward
 * NewV4Options): input, output, error and tty are on only as "1" (the API server sends them so),
 * stderr is dropped under a tty, at least one stream is required; command is repeated; a WebSocket
 * port-forward names its ports with repeated port= (a SPDY one names them per stream).
 */

/** Exec/attach stream options. */
export interface StreamOptions {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly tty: boolean;
}

/** A request the kubelet refuses with 400 and this message. */
export class BadStreamRequest extends Error {}

/** Exec/attach options from the query; throws BadStreamRequest with kubelet's message. */
export function streamOptions(query: URLSearchParams): StreamOptions {
  const on = (name: string): boolean => query.get(name) === '1';
  const tty = on('tty');
  const stdin = on('input');
  const stdout = on('output');
  const stderr = !tty && on('error');
  if (!stdin && !stdout && !stderr) throw new BadStreamRequest('you must specify at least 1 of stdin, stdout, stderr');
  return { stdin, stdout, stderr, tty };
}

/** The ports of a WebSocket port-forward (port=, repeated); throws BadStreamRequest with kubelet's messages. */
export function portForwardPorts(query: URLSearchParams): number[] {
  const raw = query.getAll('port');
  if (raw.length === 0) throw new BadStreamRequest('query parameter "port" is required');
  return raw.map((s) => {
    if (!/^\d+$/.test(s)) throw new BadStreamRequest(`unable to parse "${s}" as a port: strconv.ParseUint: parsing "${s}": invalid syntax`);
    const n = Number(s);
    if (n > 65535) throw new BadStreamRequest(`unable to parse "${s}" as a port: strconv.ParseUint: parsing "${s}": value out of range`);
    if (n < 1) throw new BadStreamRequest(`port "${s}" must be > 0`);
    return n;
  });
}
