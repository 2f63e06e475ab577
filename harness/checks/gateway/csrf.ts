/**
 * GW-CSRF-001: seed 004 § CSRF Protection, "**Method:** Token validation on POST requests",
 * "**Header:** `X-CSRF-Token: <token>`", "**Local Dev:** CSRF validation skipped for `localhost`".
 * The harness's gateway contract turns the localhost skip off (CSRF_SKIP_LOCALHOST=false), so a
 * POST without a valid token is refused with 403 even from 127.0.0.1.
 */
import type { CheckOutcome } from '../../model.ts';
import type { Exchange } from './types.ts';
import { checkRefusals, type RefusalAttempt } from './refusals.ts';

export function checkCsrf(probe: string, control: Exchange, attempts: RefusalAttempt[]): CheckOutcome[] {
  return checkRefusals({ probe, control, attempts, expectedStatus: 403, acceptedCode: 'csrf-not-checked', controlLabel: 'a matching CSRF token' });
}
