/**
 * Shuffle sharding as kube's k8s.io/apiserver/pkg/util/shufflesharding does it: a Dealer deals a
 * hand of handSize distinct cards (queue indexes) from a deck of deckSize, taking the entropy from
 * a 64-bit hash; a flow's hash is the first 8 bytes (little-endian) of the SHA-256 of its
 * FlowSchema name, a NUL byte and its distinguisher (apf_controller.go's hashFlowID). The same flow
 * always gets the same hand, so a flooding flow fills only its own hand's queues.
 */
import { createHash } from 'node:crypto';

/** kube's MaxHashBits: the entropy a 64-bit hash reliably offers to a deal. */
export const maxHashBits = 60;

/** Bits of entropy a deal of handSize from deckSize consumes (kube's RequiredEntropyBits). */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** A deal configuration; construct with newDealer, which validates as kube's NewDealer does. */
export class Dealer {
  private readonly divisors: readonly bigint[];

  private constructor(
    readonly deckSize: number,
    readonly handSize: number,
  ) {
    this.divisors = Array.from({ length: handSize }, (_, i) => BigInt(deckSize - i));
  }

  /** A dealer, or kube's error text for an impossible configuration. */
  static create(deckSize: number, handSize: number): Dealer | string {
    if (deckSize <= 0 || handSize <= 0) return `deckSize ${deckSize} or handSize ${handSize} is not positive`;
    if (handSize > deckSize) return `handSize ${handSize} is greater than deckSize ${deckSize}`;
    if (deckSize > 1 << 26) return `deckSize ${deckSize} is impractically large`;
    if (requiredEntropyBits(deckSize, handSize) > maxHashBits) {
      return `required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${maxHashBits}`;
    }
    return new Dealer(deckSize, handSize);
  }

  /**
   * The hand for hashValue, in deal order: successive remainders by deckSize, deckSize-1, ...
   * picked from the cards not yet dealt.
   */
  deal(hashValue: bigint): number[] {
    const remainders: number[] = new Array(this.handSize);
    let h = hashValue;
    for (let i = 0; i < this.handSize; i++) {
      const d = this.divisors[i] as bigint;
      const next = h / d;
      remainders[i] = Number(h - d * next);
      h = next;
    }
    const hand: number[] = new Array(this.handSize);
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i] as number;
      for (let j = i; j > 0; j--) if (card >= (remainders[j - 1] as number)) card++;
      hand[i] = card;
    }
    return hand;
  }
}

/** kube's hashFlowID: SHA-256 of flowSchemaName, NUL, distinguisher; its first 8 bytes little-endian. */
export function hashFlowID(flowSchemaName: string, distinguisher: string): bigint {
  const digest = createHash('sha256').update(flowSchemaName).update('\u0000').update(distinguisher).digest();
  return digest.readBigUInt64LE(0);
}

/**
 * Hands by flow for one dealer, so the hash and the deal run once per flow rather than per
 * request; bounded (cleared when full) since distinguishers are user names and namespaces.
 */
export class HandCache {
  private readonly hands = new Map<string, Map<string, readonly number[]>>();
  private size = 0;

  constructor(
    private readonly dealer: Dealer,
    private readonly maxEntries = 10_000,
  ) {}

  /** The hand of the flow (flowSchemaName, distinguisher). */
  hand(flowSchemaName: string, distinguisher: string): readonly number[] {
    let byDistinguisher = this.hands.get(flowSchemaName);
    if (byDistinguisher === undefined) {
      byDistinguisher = new Map();
      this.hands.set(flowSchemaName, byDistinguisher);
    }
    let hand = byDistinguisher.get(distinguisher);
    if (hand === undefined) {
      if (this.size >= this.maxEntries) {
        this.hands.clear();
        this.size = 0;
        this.hands.set(flowSchemaName, byDistinguisher);
        byDistinguisher.clear();
      }
      hand = this.dealer.deal(hashFlowID(flowSchemaName, distinguisher));
      byDistinguisher.set(distinguisher, hand);
      this.size++;
    }
    return hand;
  }
}
