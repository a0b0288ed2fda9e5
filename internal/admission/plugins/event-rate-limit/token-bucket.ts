/** EventRateLimit's buckets: the token bucket the audit backends use, taken with tryAccept. */
export { TokenBucket } from '../../../audit/token-bucket.js';
