/**
 * The API server's kubelet client (kube's NodeConnectionInfoGetter and the kubelet transport): a
 * node's kubelet is at the first address whose type comes first in --kubelet-preferred-address-
 * types, on status.daemonEndpoints.kubeletEndpoint.Port (else --kubelet-port), over HTTPS with the
 * --kubelet-client-certificate/-key identity; its serving certificate is verified against
 * --kubelet-certificate-authority, and not at all without one, as kube does.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import type { KubeObject } from '../../api/meta/types.js';
import { newBadRequest } from '../apierrors/factories.js';
import { StatusError } from '../apierrors/status-error.js';
import type { RestStorage } from '../registry/interface.js';
import { internalContext } from '../request/context.js';
import type { KubeletClientOptions } from '../server/options/kubelet-client.js';
import { joinHostPort } from '../proxy/scheme-name-port.js';
import type { KubeletClient, KubeletTarget } from './interface.js';

/** A Node's address as Go's %v prints a []NodeAddress ("[{InternalIP 10.0.0.1}]"). */
function formatAddresses(addresses: ReadonlyArray<{ type?: unknown; address?: unknown }>): string {
  return `[${addresses.map((a) => `{${String(a.type ?? '')} ${String(a.address ?? '')}}`).join(' ')}]`;
}

/** kube's GetPreferredNodeAddress: the address of the first preferred type the node has. */
export function preferredNodeAddress(node: KubeObject, preferred: readonly string[]): string {
  const status = (node.status ?? {}) as { addresses?: Array<{ type?: string; address?: string }> };
  const addresses = status.addresses ?? [];
  for (const type of preferred) {
    const found = addresses.find((a) => a.type === type && a.address);
    if (found) return found.address as string;
  }
  // kube returns a plain error here, which its handlers answer as 500 with reason Unknown.
  throw new StatusError(500, '', `no preferred addresses found; known addresses: ${formatAddresses(addresses)}`);
}

/** Builds the client; nodes returns the nodes storage when a request arrives. */
export function createKubeletClient(options: KubeletClientOptions, nodes: () => RestStorage | undefined): KubeletClient {
  const identity = options.clientCertificate && options.clientKey ? { cert: readFileSync(options.clientCertificate), key: readFileSync(options.clientKey) } : {};
  const ca = options.certificateAuthority ? readFileSync(options.certificateAuthority) : undefined;
  const agent = new Agent({ keepAlive: true, ...identity, ...(ca ? { ca } : { rejectUnauthorized: false }) });
  const insecureAgent = new Agent({ keepAlive: true, ...identity, rejectUnauthorized: false });
  return {
    async target(nodeName: string): Promise<KubeletTarget> {
      const store = nodes();
      if (!store?.get) throw newBadRequest('nodes are not served');
      const node = await store.get(internalContext({ verb: 'get', resource: 'nodes', name: nodeName }), nodeName, { resourceVersion: '' });
      const hostname = preferredNodeAddress(node, options.preferredAddressTypes);
      const endpoints = ((node.status ?? {}) as { daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } }).daemonEndpoints;
      const reported = Number(endpoints?.kubeletEndpoint?.Port ?? 0);
      const port = String(reported > 0 ? reported : options.port);
      return { scheme: 'https', host: joinHostPort(hostname, port), agent, insecureAgent, timeoutMs: options.timeoutMs };
    },
  };
}
