/**
 * Every part's error-code table, merged into the one registry (a duplicate code fails here, at
 * load). A part that grows a table adds one import and one line below.
 */
import { mergeErrorCodes } from './error-codes.ts';
import { mockErrorCodes } from '../mock-adk/error-codes.ts';
import { gatewayErrorCodes } from '../reference-impl/gateway/error-codes.ts';
import { tapErrorCodes } from '../tap/error-codes.ts';

export const errorCodes = mergeErrorCodes({
  'mock-adk': mockErrorCodes,
  gateway: gatewayErrorCodes,
  tap: tapErrorCodes,
});
