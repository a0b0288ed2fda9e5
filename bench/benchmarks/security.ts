/**
 * security: what authentication and authorization cost on the request path. Creates/s (POST of
 * 1 KiB ConfigMaps, 64 in flight) and cached GET/s (resourceVersion=0, 64 connections) against a
 * server with x509 client certificates and --authorization-mode=Node,RBAC — the client a user bound
 * to `edit` in the namespace by a RoleBinding, so RBAC really decides (system:masters would be
 * allowed before RBAC is asked) — against the same load on a server with the defaults (anonymous,
 * AlwaysAllow). Both servers run side by side on the same etcd, both warmed on both workloads, and
 * are loaded in alternating rounds whose order flips every round (the server measured second in a
 * round runs on a warmer machine); each ratio is the median of the rounds'. Measured against two
 * identical servers this way the ratio stays within a few percent of 1.0 (an A/A check, see
 * bench/README.md). Each server's own CPU time per answered request over its runs (from /proc) is
 * noted too: what security costs the server, apart from the load generator sharing the cores.
 * Target: at most 10% slower (>= 0.9x).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abResult, runAbRounds, type AbMeasurements, type AbWorkload } from '../ab-rounds.js';
import { throughput } from '../cannon.js';
import { callOk, ensureNamespace, newClient } from '../client.js';
import { withServer, type BenchContext } from '../context.js';
import type { ServerHandle } from '../server-handle.js';
import { collectionPath, configMap } from '../objects.js';
import { awaitAllowed, bindEdit, clientPki, securedFlags } from '../production-chain.js';
import type { BenchResult } from '../results.js';

const connections = 64;
const seconds = 3;
const rounds = 5;
const namespace = 'bench-security';

/** Sets a server up: the namespace, a ConfigMap to read, and (secured) the user's RoleBinding. */
async function prepare(server: ServerHandle, admin?: { cert: string; key: string }): Promise<void> {
  const client = newClient(server.port, server.ca, 8, admin);
  try {
    await ensureNamespace(client, namespace);
    if (admin) await bindEdit(client, namespace);
    const target = `${collectionPath(namespace, 'configmaps')}/target`;
    if ((await client.call('GET', target)).status === 404) await callOk(client, 'POST', collectionPath(namespace, 'configmaps'), configMap({ name: 'target' }, 1024));
  } finally {
    client.close();
  }
}

/** Runs the security benchmark. */
export async function securityBenchmark(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-security-'));
  try {
    const pki = await clientPki(dir);
    const { admin, user } = pki;
    const body = JSON.stringify(configMap({ generateName: 's-' }, 1024));
    const workloads: AbWorkload[] = [
      {
        name: 'creates',
        load: (s, side) =>
          throughput({ port: s.port, ca: s.ca, path: collectionPath(namespace, 'configmaps'), method: 'POST', body, connections, warmupSeconds: 0, seconds, ...(side === 'a' ? { clientCert: user } : {}) }),
      },
      {
        name: 'cached GET',
        load: (s, side) =>
          throughput({ port: s.port, ca: s.ca, path: `${collectionPath(namespace, 'configmaps')}/target?resourceVersion=0`, connections, warmupSeconds: 0, seconds, ...(side === 'a' ? { clientCert: user } : {}) }),
      },
    ];
    let measured: AbMeasurements | undefined;
    await withServer(await ctx.apiServer(undefined, securedFlags(pki)), async (secure) => {
      await withServer(await ctx.apiServer(), async (plain) => {
        await prepare(secure, admin);
        await prepare(plain);
        await awaitAllowed(secure, user, `${collectionPath(namespace, 'configmaps')}/target?resourceVersion=0`);
        ctx.log(`security: ${rounds} rounds of ${seconds}s creates and cached GETs, x509 + Node,RBAC (user bound to edit) then anonymous + AlwaysAllow, ${connections} connections`);
        measured = await secure.profile('security', () => runAbRounds(secure, plain, workloads, rounds));
      });
    });
    const m = measured as AbMeasurements;
    return workloads.map((w, i) =>
      abResult(m, i, { name: `${w.name} x509+RBAC`, aLabel: 'x509+RBAC', bLabel: 'AlwaysAllow', threshold: 0.9, extraFigures: { connections, seconds } }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
