/**
 * The HTTPS agents requests to extension API servers go through, one per APIService and its TLS
 * settings: the server is verified with spec.caBundle (or not at all with insecureSkipTLSVerify),
 * and the front-proxy client certificate (--proxy-client-cert-file/--proxy-client-key-file) is
 * presented, which the extension server checks against its requestheader CA.
 */
import { Agent } from 'node:https';
import type { APIServiceView } from './interface.js';

/** The front-proxy client certificate and key (PEM). */
export interface ProxyClientCertificate {
  readonly cert: string;
  readonly key: string;
}

/** Agents by APIService, rebuilt when its TLS settings change. */
export class BackendTransports {
  private readonly agents = new Map<string, { readonly key: string; readonly agent: Agent }>();

  constructor(private readonly clientCert: ProxyClientCertificate | undefined) {}

  /** The agent for api's requests (keep-alive; shared by proxying and checks). */
  agentFor(api: APIServiceView): Agent {
    const key = `${api.insecureSkipTLSVerify}\n${api.caBundle ?? ''}`;
    const hit = this.agents.get(api.name);
    if (hit && hit.key === key) return hit.agent;
    hit?.agent.destroy();
    const agent = new Agent({
      keepAlive: true,
      ...(api.caBundle ? { ca: api.caBundle } : {}),
      rejectUnauthorized: !api.insecureSkipTLSVerify,
      ...(this.clientCert ? { cert: this.clientCert.cert, key: this.clientCert.key } : {}),
    });
    this.agents.set(api.name, { key, agent });
    return agent;
  }

  /** An agent that verifies nothing (kube's availability check does not verify the server), with the client certificate. */
  readonly insecure = (): Agent => {
    this.insecureAgent ??= new Agent({ keepAlive: false, rejectUnauthorized: false, ...(this.clientCert ? { cert: this.clientCert.cert, key: this.clientCert.key } : {}) });
    return this.insecureAgent;
  };

  private insecureAgent: Agent | undefined;

  /** Drops api's agent (the APIService is gone). */
  forget(name: string): void {
    this.agents.get(name)?.agent.destroy();
    this.agents.delete(name);
  }

  /** Closes every agent's connections. */
  close(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
    this.insecureAgent?.destroy();
  }
}
