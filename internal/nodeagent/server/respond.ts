/** Plain answers of the kubelet server (go-restful's WriteErrorString and friends). */
import type { ServerResponse } from 'node:http';

/** Writes status with a text body and ends the response. */
export function writeText(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = Buffer.from(text);
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length) });
  res.end(body);
}

/** Writes a JSON body (kubelet's /pods and /stats answers). */
export function writeJson(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length) });
  res.end(body);
}
