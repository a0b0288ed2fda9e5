import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../apierrors/status-error.js';
import type { HandlerInput } from './common.js';
import { guardNesting } from './nesting-guard.js';

const deep = (n: number): unknown => (n === 0 ? 1 : { x: deep(n - 1) });
const walk = (v: unknown): number => (typeof v === 'object' && v !== null ? 1 + walk((v as { x: unknown }).x) : 0);

test('a stack overflow while serving a deep body is 400 BadRequest, not 500', async () => {
  let value: unknown = 1;
  for (let i = 0; i < 200_000; i++) value = { x: value };
  const handler = guardNesting(async () => {
    walk(value);
  });
  await assert.rejects(handler({} as HandlerInput), (err: unknown) => err instanceof StatusError && err.status.code === 400 && err.status.reason === 'BadRequest');
  assert.equal(walk(deep(10)), 10);
});

test('other errors pass through the guard unchanged', async () => {
  const boom = new Error('boom');
  await assert.rejects(guardNesting(async () => Promise.reject(boom))({} as HandlerInput), (err) => err === boom);
});
