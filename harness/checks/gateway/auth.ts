/**
 * GW-AUTH-001..004: seed 004 § Authentication, "**Method:** JWT Bearer tokens", "**Header:**
 * `Authorization: Bearer <token>`". A request without a valid token is refused with 401: no
 * token or a malformed one (001), expired or not yet valid (002), unsigned (`alg: none`) or
 * algorithm-confused (HS256 MACed with the RSA public key) (003), signed with another key (004).
 */
import type { CheckOutcome } from '../../model.ts';
import type { Exchange } from './types.ts';
import { checkRefusals, type RefusalAttempt } from './refusals.ts';

export function checkAuth(probe: string, control: Exchange, attempts: RefusalAttempt[]): CheckOutcome[] {
  return checkRefusals({ probe, control, attempts, expectedStatus: 401, acceptedCode: 'accepted-invalid-token', controlLabel: 'a valid token' });
}
