import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Dealer, HandCache, hashFlowID } from './shuffle-sharding.js';

test('a deal picks handSize distinct cards of the deck, the same for the same hash', () => {
  const d = Dealer.create(8, 3) as Dealer;
  assert.deepEqual(d.deal(0n), [0, 1, 2]);
  // remainders 7 % 8 = 7, then 0 % 7, 0 % 6: card 7, then 0, then 1
  assert.deepEqual(d.deal(7n), [7, 0, 1]);
  for (let i = 0n; i < 500n; i++) {
    const h = (i * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    const hand = d.deal(h);
    assert.equal(new Set(hand).size, 3);
    assert.ok(hand.every((c) => c >= 0 && c < 8));
  }
});

test('the dealer refuses what kube refuses', () => {
  assert.equal(Dealer.create(4, 5), 'handSize 5 is greater than deckSize 4');
  assert.equal(Dealer.create(0, 1), 'deckSize 0 or handSize 1 is not positive');
  assert.match(Dealer.create(512, 8) as string, /required entropy bits of deckSize 512 and handSize 8 is greater than 60/);
});

test('flow hashes are SHA-256 based and deterministic; hands are cached per flow', () => {
  assert.equal(hashFlowID('fs', 'alice'), hashFlowID('fs', 'alice'));
  assert.notEqual(hashFlowID('fs', 'alice'), hashFlowID('fs', 'bob'));
  assert.notEqual(hashFlowID('fsa', 'lice'), hashFlowID('fs', 'alice'));
  const cache = new HandCache(Dealer.create(64, 6) as Dealer);
  assert.equal(cache.hand('fs', 'alice'), cache.hand('fs', 'alice'));
});
