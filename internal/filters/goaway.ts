/**
 * The probabilistic GOAWAY filter (kube's WithProbabilisticGoaway), on with --goaway-chance: that
 * fraction of HTTP/2 requests, watches included, gets its connection a GOAWAY, so the client
 * finishes what is in flight there and opens a new connection for its next request, likely through
 * the load balancer to another server. HTTP/1.1 requests are never chosen.
 */
import { closeConnectionAfter, isHttp2 } from '../server/serving/protocol.js';
import type { Filter } from './interface.js';

/** Builds the filter; undefined when chance is 0. random (tests) draws from [0, 1). */
export function withProbabilisticGoaway(chance: number, random: () => number = Math.random): Filter | undefined {
  if (chance <= 0) return undefined;
  return (req, res) => {
    if (isHttp2(req) && random() < chance) closeConnectionAfter(req, res);
  };
}
