/**
 * Seed 002 §4.1: ERROR is a "Recovery failure" shown with a "Suggestion chip". These are the
 * suggestions, keyed by what the stream said went wrong; each says what the user or operator can do.
 */

/** The server's exception line (adk-python-facts §1.3 step 9) or the gateway's frames (seed 004 "Error Handling"). */
export function suggestForErrorFrame(frame: Record<string, unknown>): { code: string; message: string; suggestion: string } {
  const details = typeof frame.error_details === 'object' && frame.error_details !== null ? (frame.error_details as Record<string, unknown>) : {};
  const message = typeof frame.error === 'string' ? frame.error : frame.error === undefined ? 'the server failed without a message' : JSON.stringify(frame.error);
  if (frame.error_code === 'TIMEOUT') return { code: 'TIMEOUT', message, suggestion: 'The run exceeded the gateway time limit (300 s). Retry with a narrower request, or raise the gateway timeout.' };
  if (frame.error_code === 'STREAM_ERROR') return { code: 'STREAM_ERROR', message, suggestion: 'The connection to the agent service broke. Retry; if it persists, check that the ADK service is running.' };
  if (typeof frame.status_code === 'number') return { code: `HTTP_${frame.status_code}`, message: `${message}${typeof frame.detail === 'string' ? `: ${frame.detail}` : ''}`, suggestion: suggestForStatus(frame.status_code, typeof frame.detail === 'string' ? frame.detail : message) };
  const code = typeof details.error_type === 'string' ? details.error_type : 'ADK_ERROR';
  return { code, message, suggestion: suggestForMessage(message) };
}

export function suggestForStatus(status: number, detail: string): string {
  if (status === 404 && /session/i.test(detail)) return 'The session does not exist. Create it (POST /apps/{app}/users/{user}/sessions/{session}) and send the message again.';
  if (status === 401 || status === 403) return 'The request was not authorised. Sign in again and retry.';
  if (status === 422 || status === 400) return 'The agent service refused the request body. Check appName, userId, sessionId and newMessage.';
  if (status === 429) return 'The model quota is exhausted. Wait a minute and retry.';
  if (status === 501) return 'Canonical streaming is disabled on the gateway. Set ENABLE_ADK_CANONICAL_STREAM=true.';
  if (status >= 500) return 'The agent service failed. Retry in a moment; if it persists, check its logs.';
  return `The agent service answered HTTP ${status}. Check the request and retry.`;
}

function suggestForMessage(message: string): string {
  if (/session not found/i.test(message)) return 'The session does not exist. Create it and send the message again.';
  if (/not found in .*available agents|invalid app name/i.test(message)) return 'The appName does not name a loaded agent. Use one of the available agents.';
  if (/no parts/i.test(message)) return 'The message was empty. Send a message with at least one text part.';
  if (/stale session|last_update_time/i.test(message)) return 'Another run changed this session at the same time. Wait for it to finish and retry.';
  return 'The agent failed after the stream started. Retry; if it persists, check the agent service logs.';
}

/** A model error reported as an event (adk-wire-format §6, adk-python-facts §2.1 LlmResponse.create). */
export function suggestForErrorCode(code: string, message: string): string {
  if (code === 'SAFETY' || code === 'PROHIBITED_CONTENT' || code === 'BLOCKLIST' || code === 'SPII' || code === 'IMAGE_SAFETY') return 'The response was blocked for safety reasons. Rephrase the request.';
  if (code === 'RECITATION') return 'The response was stopped for recitation. Ask for a summary in other words.';
  if (code === 'MAX_TOKENS') return 'The answer hit the output token limit. Ask for a shorter answer or raise max output tokens.';
  if (code === 'MALFORMED_FUNCTION_CALL') return 'The model produced a malformed tool call. Retry the request.';
  if (code === '429' || /quota/i.test(message)) return 'The model quota is exhausted. Wait a minute and retry.';
  if (/^5\d\d$/.test(code)) return 'The model service failed. Retry in a moment.';
  if (/max number of llm calls/i.test(message)) return 'The agent looped until its LLM call limit. Simplify the request or fix the agent instructions.';
  if (/not found in the tools ?dict/i.test(message)) return 'The model called a tool that does not exist. Check the agent tool list.';
  return 'The model call failed. Retry; if it persists, check the agent service logs.';
}

/** Codes that mean the data itself was refused (seed 002: an ALERT "where the data says something is wrong"). */
export const blockedCodes: ReadonlySet<string> = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY', 'RECITATION']);
