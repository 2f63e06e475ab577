/**
 * Every refusal the gateway answers over HTTP has one shape, `{error, code, reason}` (plus
 * `issues` for body validation), so a client can branch on `code` and show `reason`.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorCodeEntry } from '../../core/error-codes.ts';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { gatewayErrorCodes, type GatewayErrorCode } from './error-codes.ts';

export type ErrorBody = { error: string; code: GatewayErrorCode; reason: string; [extra: string]: unknown };

export function errorBody(code: GatewayErrorCode, reason: string, extra: Record<string, unknown> = {}): { status: number; body: ErrorBody } {
  const entry: ErrorCodeEntry = gatewayErrorCodes[code];
  const status = entry.status ?? 500;
  return { status, body: { error: STATUS_CODES[status] ?? 'Error', code, reason, ...extra } };
}

export function sendError(reply: FastifyReply, code: GatewayErrorCode, reason: string, extra: Record<string, unknown> = {}): FastifyReply {
  const { status, body } = errorBody(code, reason, extra);
  if (status === 401) reply.header('www-authenticate', `Bearer error="invalid_token", error_description="${reason.replace(/["\\]/g, '')}"`);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own 4xx (body parsing) and anything thrown, in the gateway's shape. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, 'GW_UNSUPPORTED_MEDIA_TYPE', `Content-Type '${request.headers['content-type'] ?? '(none)'}' is not application/json`);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 'GW_BODY_TOO_LARGE', error.message);
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return sendError(reply, 'GW_MALFORMED_JSON', 'the body is empty; send a JSON object');
    if (error.statusCode === 400 && (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON' || /JSON/.test(error.message))) {
      return sendError(reply, 'GW_MALFORMED_JSON', `the body is not valid JSON: ${error.message}`);
    }
    request.log.error({ err: error }, 'gateway error');
    if (reply.raw.headersSent) { reply.raw.destroy(); return reply; }
    return sendError(reply, 'GW_INTERNAL', 'internal error');
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, 'GW_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
}
