/**
 * How the API server reaches a node's kubelet (kube's KubeletClientConfig and NodeConnectionInfo):
 * pods/log, pods/exec, pods/attach, pods/portforward and nodes/proxy go to the node's address of the
 * first --kubelet-preferred-address-types kind it has, on the port the Node reports in
 * status.daemonEndpoints.kubeletEndpoint, over TLS with --kubelet-client-certificate/-key, checked
 * against --kubelet-certificate-authority, bounded by --kubelet-timeout.
 */
import type { Agent } from 'node:https';

/** Where one node's kubelet answers, and how to talk to it. */
export interface KubeletTarget {
  readonly scheme: 'https';
  /** host:port (IPv6 bracketed). */
  readonly host: string;
  /** Carries the client certificate and the CA (or skips verification without a CA, as kube does). */
  readonly agent: Agent;
  /** --kubelet-timeout in ms (dial and response headers; 0: none). */
  readonly timeoutMs: number;
  /** The same client identity without verifying the kubelet's certificate (PodLogOptions.insecureSkipTLSVerifyBackend). */
  readonly insecureAgent?: Agent;
}

/** Finds a node's kubelet. */
export interface KubeletClient {
  /** The kubelet of node name; rejects with a StatusError (NotFound, BadRequest "no preferred addresses found; known addresses: ...") when it cannot be reached. */
  target(nodeName: string): Promise<KubeletTarget>;
}
