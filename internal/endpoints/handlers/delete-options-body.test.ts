import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../apierrors/status-error.js';
import { checkDeleteOptionsBody } from './delete-options-body.js';

const refused = (body: unknown, message: string): void =>
  assert.throws(() => checkDeleteOptionsBody(body), (err: unknown) => err instanceof StatusError && err.status.code === 400 && err.status.reason === 'BadRequest' && err.status.message === message);

test('a DeleteOptions body that is not an object is refused as kube\'s decoder refuses it', () => {
  refused([1, 2], 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  refused('x', 'couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
});

test('DeleteOptions fields of the wrong JSON type are refused with the Go field named', () => {
  refused({ gracePeriodSeconds: 'soon' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
  refused({ gracePeriodSeconds: 1.5 }, 'json: cannot unmarshal number into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
  refused({ orphanDependents: 'yes' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool');
  refused({ dryRun: 'All' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string');
  refused({ preconditions: { uid: 7 } }, 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID');
});

test('well-typed DeleteOptions, and nulls, pass', () => {
  checkDeleteOptionsBody({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, orphanDependents: null, dryRun: ['All'], preconditions: { uid: 'u', resourceVersion: null }, propagationPolicy: 'Background' });
  checkDeleteOptionsBody({});
});
