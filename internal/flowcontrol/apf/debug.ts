/**
 * The /debug/api_priority_and_fairness/ endpoints kube installs with priority and fairness:
 * dump_priority_levels, dump_queues and dump_requests (?includeRequestDetails=<anything>), the
 * dispatcher's dumps as text/plain. Authorized like any non-resource path (the chain did that).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FlowDispatcher } from '../interface.js';

const prefix = '/debug/api_priority_and_fairness/';
const kinds: Readonly<Record<string, 'priority_levels' | 'queues' | 'requests'>> = {
  dump_priority_levels: 'priority_levels',
  dump_queues: 'queues',
  dump_requests: 'requests',
};

/** Serves path when it is one of the dumps; false otherwise. */
export function serveDump(dispatcher: Pick<FlowDispatcher, 'dump'>, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): boolean {
  if (!path.startsWith(prefix)) return false;
  const kind = kinds[path.slice(prefix.length)];
  if (!kind) return false;
  const text = dispatcher.dump(kind, { includeRequestDetails: (query.get('includeRequestDetails') ?? '') !== '' });
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(req.method === 'HEAD' ? undefined : text);
  return true;
}
