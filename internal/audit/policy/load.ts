/**
 * --audit-policy-file: reads, decodes and validates the policy as kube's
 * policy.LoadPolicyFromFile does, with its messages ("failed to read file path ...", "... : from
 * file <path>", "loaded illegal policy with 0 rules"); unknown fields are warned about and
 * ignored, as kube's lenient fallback does.
 */
import { readFile } from 'node:fs/promises';
import { goErrnoText } from '../log/errno.js';
import { decodePolicy } from './decode.js';
import type { AuditPolicy } from './types.js';
import { policyErrorsMessage } from './validate.js';

/** Decodes and validates a policy's text; warn receives kube's lenient-decoding warning. */
export function loadPolicyFromText(text: string, warn?: (message: string) => void): AuditPolicy {
  const { policy, strictError } = decodePolicy(text);
  if (strictError) warn?.(`Audit policy contains errors, falling back to lenient decoding: ${strictError}`);
  const invalid = policyErrorsMessage(policy);
  if (invalid !== '') throw new Error(invalid);
  if (policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

/** Reads and loads the policy file at path; throws with kube's message. */
export async function loadPolicyFile(path: string, warn?: (message: string) => void): Promise<AuditPolicy> {
  if (path === '') throw new Error('file path not specified');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path ${JSON.stringify(path)}: open ${path}: ${goErrnoText(err)}`);
  }
  try {
    return loadPolicyFromText(text, warn);
  } catch (err) {
    throw new Error(`${(err as Error).message}: from file ${path}`);
  }
}
