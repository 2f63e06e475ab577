/**
 * The mock's error codes: what the mock answers when a request to it (not to the ADK server it
 * imitates) cannot be served. Those answers are JSON `{code, error, fix}` where `error` names the
 * exact problem; the ADK-shaped answers (session 404, bad JSON...) stay the dialect's own bytes.
 */
import type { ErrorCodeTable } from '../core/error-codes.ts';

export const mockErrorCodes = {
  MOCK_RENDER_FAILED: { status: 500, message: 'The selected scenario could not be rendered into a replay plan.', fix: 'Run `adk-conformance lint-scenarios` and fix the scenario the error names; the message says which step or field the renderer rejected.' },
  MOCK_FAULT_FAILED: { status: 500, message: "A fault listed in the scenario's `faults` could not be applied.", fix: "Fix the scenario's `faults` entry the error names (its name must be in mock-adk/core/faults.ts `faultNames`, with the parameters that fault takes)." },
  MOCK_BAD_FAULTS: { status: 400, message: 'The X-Mock-Faults request header is not a fault list, or names an unknown fault.', fix: 'Send X-Mock-Faults as a JSON array of {name, ...params} objects or as comma-separated fault names from GET /_mock/faults.' },
  MOCK_WRONG_ENDPOINT: { status: 500, message: 'The selected scenario cannot be served on this route (an anthropic-turn scenario on an ADK run route, or a raw-bytes scenario on /run).', fix: 'Send the request to the route the scenario is for: /v1/messages for anthropic-turn scenarios, /run_sse for byte scripts.' },
  MOCK_ARM_BAD_BODY: { status: 400, message: 'The /_mock/arm body is not a JSON object.', fix: 'POST /_mock/arm with Content-Type: application/json and a body like {"sessionId":"s1","scenario":"cedar_creek_briefing"}.' },
  MOCK_ARM_BAD_FIELD: { status: 400, message: 'A /_mock/arm field is missing or has the wrong type.', fix: 'Send `sessionId` and `scenario` as non-empty strings, `dialect` as "adk-js" or "adk-python", and `faults` as an array of {name, ...params}.' },
  MOCK_ARM_BAD_DIALECT: { status: 400, message: 'The armed dialect is not one the scenario can be rendered in.', fix: 'Arm the dialect the error lists (a `pinned` run or a byte script renders only in its own `dialect`), or leave `dialect` out.' },
  MOCK_UNKNOWN_SCENARIO: { status: 404, message: 'No loaded scenario has that id.', fix: 'Use an id from GET /_mock/scenarios; if the scenario is missing there, check the load errors the mock printed at start.' },
  MOCK_UNKNOWN_FAULT: { status: 400, message: 'A fault name is not one the fault engine knows.', fix: 'Use a name from GET /_mock/faults.' },
  MOCK_NOT_ANTHROPIC: { status: 400, message: 'The scenario is not an anthropic-turn scenario, so it has no /v1/messages stream or tool results.', fix: 'Name an anthropic-turn scenario (GET /_mock/scenarios lists each id with its upstream kind).' },
  MOCK_ANTHROPIC_BAD_REQUEST: { status: 400, message: 'The /v1/messages request is not a JSON object with a string `model` and a `messages` array.', fix: 'Send {"model":"<anthropic-turn scenario id>","messages":[...],"stream":true}.' },
  MOCK_ANTHROPIC_NO_MORE_CALLS: { status: 400, message: 'The request asks for an LLM call the scenario does not script (more assistant messages than the scenario has calls).', fix: 'The call index is the number of assistant messages in `messages`; send no more assistant messages than the scenario has messages minus one.' },
  MOCK_UNKNOWN_TOOL_USE: { status: 404, message: 'The anthropic-turn scenario scripts no tool result for that tool_use id.', fix: "Use a tool_use id from the scenario's `toolResults` (the ids its tool_use blocks carry)." },
  MOCK_MSW_UNSUPPORTED_STATUS: { status: 500, message: 'The plan has an HTTP status a fetch Response cannot carry (below 200), so the msw shell cannot serve it.', fix: 'Serve this scenario with the fastify mock (adk-conformance mock), which writes any status on a real socket.' },
} as const satisfies ErrorCodeTable;

export type MockErrorCode = keyof typeof mockErrorCodes;
