import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import type { TokenAuthenticator } from './interface.js';
import { WebSocketProtocolAuthenticator } from './websocket-protocol.js';

const tokens: TokenAuthenticator = { authenticateToken: (t) => (t === 'good-token' ? { user: { name: 'alice', groups: [] } } : undefined) };
const a = new WebSocketProtocolAuthenticator(tokens, []);
const enc = (t: string): string => `base64url.bearer.authorization.k8s.io.${Buffer.from(t).toString('base64url')}`;

function upgrade(protocols: string[], extra: Record<string, string> = {}): IncomingMessage {
  const headers = { connection: 'keep-alive, Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': protocols.join(', '), ...extra };
  return { headers, headersDistinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])) } as unknown as IncomingMessage;
}

describe('WebSocket subprotocol bearer tokens', () => {
  it('authenticates the token and removes it from the subprotocols', async () => {
    const req = upgrade([enc('good-token'), 'v5.channel.k8s.io']);
    assert.equal((await a.authenticate(req))?.user.name, 'alice');
    assert.equal(req.headers['sec-websocket-protocol'], 'v5.channel.k8s.io');
  });

  it('has no opinion on requests that are not upgrades or carry no token', async () => {
    assert.equal(await a.authenticate(upgrade(['v5.channel.k8s.io'])), undefined);
    assert.equal(await a.authenticate(upgrade([enc('good-token'), 'v5'], { upgrade: 'h2c' })), undefined);
  });

  it("refuses what kube refuses, with kube's reasons", async () => {
    await assert.rejects(async () => a.authenticate(upgrade([enc('good-token')])), { message: 'missing additional subprotocol' });
    await assert.rejects(async () => a.authenticate(upgrade([enc('good-token'), enc('good-token'), 'v5'])), { message: 'multiple base64.bearer.authorization tokens specified' });
    await assert.rejects(async () => a.authenticate(upgrade(['base64url.bearer.authorization.k8s.io.a+b', 'v5'])), { message: 'invalid base64.bearer.authorization token encoding' });
    await assert.rejects(async () => a.authenticate(upgrade([enc('other'), 'v5'])), { message: 'invalid bearer token' });
  });
});
