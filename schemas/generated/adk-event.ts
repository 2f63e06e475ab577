// Generated from schemas/adk-event.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const adkEventSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/adk-event.schema.json",
  "title": "AdkEvent",
  "description": "One ADK Event as a real server emits it in a `data:` line of POST /run_sse (camelCase JSON, no nulls). Two dialects: adk-js 2.0.0 (research adk-wire-format.md §4: integer-ms timestamp, 8-char id, the four actions maps and longRunningToolIds always present) and adk-python (adk-python-facts.md §2: float-second timestamp, uuid id, longRunningToolIds only on function-call events). The timestamp's magnitude keeps the two apart (ms >= 1e11 > seconds), so exactly one of `#/definitions/adkJsEvent` and `#/definitions/adkPythonEvent` matches a valid event. Error lines (`{\"error\": ...}`) are not events: see sse-error-frame. Additional properties are allowed (newer servers add fields: adk-python-facts.md §2.1, §2.2).",
  "anyOf": [
    {
      "$ref": "#/definitions/adkJsEvent"
    },
    {
      "$ref": "#/definitions/adkPythonEvent"
    }
  ],
  "definitions": {
    "adkJsEvent": {
      "title": "adk-js 2.0.0 event",
      "description": "adk-wire-format.md §4: invocationId, author, id (8 chars [A-Za-z0-9]), timestamp (integer ms), actions (always the four maps) and longRunningToolIds (always, [] unless long-running) are always present.",
      "allOf": [
        {
          "$ref": "#/definitions/eventFields"
        },
        {
          "type": "object",
          "required": [
            "invocationId",
            "author",
            "id",
            "timestamp",
            "actions",
            "longRunningToolIds"
          ],
          "properties": {
            "id": {
              "type": "string",
              "pattern": "^[A-Za-z0-9]{8}$",
              "description": "8 chars [A-Za-z0-9], new for every emitted event, partial chunks included (adk-wire-format.md §4)."
            },
            "timestamp": {
              "type": "integer",
              "minimum": 100000000000,
              "description": "Integer milliseconds since the epoch (adk-wire-format.md §4)."
            },
            "actions": {
              "$ref": "#/definitions/adkJsActions"
            }
          }
        }
      ]
    },
    "adkPythonEvent": {
      "title": "adk-python event",
      "description": "adk-python-facts.md §2 (Event = LlmResponse fields then Event fields, model_dump_json(exclude_none=True, by_alias=True)): invocationId, author, actions, id (uuid4; v1.4.2 used 8 alphanumeric chars) and timestamp (float seconds) are always present; longRunningToolIds is omitted when None.",
      "allOf": [
        {
          "$ref": "#/definitions/eventFields"
        },
        {
          "type": "object",
          "required": [
            "invocationId",
            "author",
            "id",
            "timestamp",
            "actions"
          ],
          "properties": {
            "id": {
              "type": "string",
              "pattern": "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z0-9]{8})$",
              "description": "uuid4 (`platform_uuid.new_uuid()`); v1.4.2's Event.new_id() gave 8 alphanumeric chars (adk-python-facts.md §0, §2.2)."
            },
            "timestamp": {
              "type": "number",
              "minimum": 0,
              "exclusiveMaximum": 100000000000,
              "description": "Float seconds since the epoch, `time.time()` (adk-python-facts.md §2.2)."
            },
            "actions": {
              "$ref": "#/definitions/adkPythonActions"
            }
          }
        }
      ]
    },
    "eventFields": {
      "type": "object",
      "description": "The fields both dialects share, typed (adk-wire-format.md §4 table; adk-python-facts.md §2.1 LlmResponse and §2.2 Event tables).",
      "properties": {
        "invocationId": {
          "type": "string",
          "minLength": 1,
          "description": "\"e-\" + uuid4, shared by every event of one run, transferred sub-agent included."
        },
        "author": {
          "type": "string",
          "description": "The agent name (also the author of function-response events); \"user\" for user events, never emitted on /run_sse."
        },
        "id": {
          "type": "string",
          "minLength": 1
        },
        "timestamp": {
          "type": "number"
        },
        "actions": {
          "$ref": "#/definitions/actions"
        },
        "longRunningToolIds": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "uniqueItems": true,
          "description": "A set serialised as an array; non-empty only for long-running tool calls."
        },
        "content": {
          "$ref": "#/definitions/content"
        },
        "usageMetadata": {
          "$ref": "#/definitions/usageMetadata"
        },
        "finishReason": {
          "type": "string",
          "description": "genai FinishReason: STOP, MAX_TOKENS, SAFETY, RECITATION, MALFORMED_FUNCTION_CALL, ... (kept open: the set grows)."
        },
        "partial": {
          "type": "boolean",
          "description": "Only when streaming: true on chunks, false on the aggregated final (adk-wire-format.md §5b; adk-python-facts.md §3.2)."
        },
        "errorCode": {
          "type": "string",
          "description": "Model-level error as an ordinary event: \"UNKNOWN_ERROR\", a stringified HTTP code (\"500\"), or a finish reason (\"SAFETY\", \"MALFORMED_FUNCTION_CALL\")."
        },
        "errorMessage": {
          "type": "string"
        },
        "branch": {
          "type": "string",
          "description": "\"parent.child\" for sub-agents or parallel branches."
        },
        "turnComplete": {
          "type": "boolean",
          "description": "Live mode only; never set on /run_sse."
        },
        "interrupted": {
          "type": "boolean"
        },
        "modelVersion": {
          "type": "string",
          "description": "adk-python usually sends it (\"gemini-2.0-flash\", seed 001); adk-js drops it."
        },
        "avgLogprobs": {
          "type": "number"
        },
        "logprobsResult": {
          "type": "object"
        },
        "groundingMetadata": {
          "type": "object"
        },
        "citationMetadata": {
          "type": "object"
        },
        "customMetadata": {
          "type": "object"
        },
        "turnId": {
          "type": "string",
          "description": "Newest adk-python 1.x."
        },
        "nodeInfo": {
          "type": "object",
          "description": "ADK 2.x workflows: {path, executionId, ...}."
        },
        "output": {
          "description": "ADK 2.x workflow node output (any JSON)."
        },
        "_audit_metadata": {
          "$ref": "#/definitions/auditMetadata"
        }
      }
    },
    "actions": {
      "type": "object",
      "description": "EventActions (adk-python-facts.md §2.3; adk-wire-format.md §4).",
      "properties": {
        "stateDelta": {
          "type": "object"
        },
        "artifactDelta": {
          "type": "object",
          "additionalProperties": {
            "type": "integer"
          },
          "description": "filename -> version."
        },
        "requestedAuthConfigs": {
          "type": "object",
          "description": "Keyed by function-call id."
        },
        "requestedToolConfirmations": {
          "type": "object",
          "description": "Keyed by function-call id."
        },
        "transferToAgent": {
          "type": "string"
        },
        "skipSummarization": {
          "type": "boolean"
        },
        "escalate": {
          "type": "boolean"
        },
        "endOfAgent": {
          "type": "boolean"
        },
        "compaction": {
          "type": "object"
        },
        "agentState": {
          "type": "object"
        },
        "rewindBeforeInvocationId": {
          "type": "string"
        }
      }
    },
    "adkJsActions": {
      "description": "adk-js always sends the four maps, even empty (adk-wire-format.md §4).",
      "allOf": [
        {
          "$ref": "#/definitions/actions"
        },
        {
          "required": [
            "stateDelta",
            "artifactDelta",
            "requestedAuthConfigs",
            "requestedToolConfirmations"
          ]
        }
      ]
    },
    "adkPythonActions": {
      "description": "adk-python always emits stateDelta and artifactDelta; requestedAuthConfigs and requestedToolConfirmations joined later (mid-2025 builds emitted three keys, seed 001 shows two; adk-python-facts.md §2.3).",
      "allOf": [
        {
          "$ref": "#/definitions/actions"
        },
        {
          "required": [
            "stateDelta",
            "artifactDelta"
          ]
        }
      ]
    },
    "content": {
      "type": "object",
      "description": "genai Content: {role: \"model\"} for model output, {role: \"user\"} for function responses.",
      "properties": {
        "role": {
          "enum": [
            "user",
            "model"
          ]
        },
        "parts": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/part"
          }
        }
      }
    },
    "part": {
      "type": "object",
      "minProperties": 1,
      "description": "genai Part, camelCase (adk-python-facts.md §2.4).",
      "properties": {
        "text": {
          "type": "string"
        },
        "thought": {
          "type": "boolean",
          "description": "true on reasoning text."
        },
        "thoughtSignature": {
          "type": "string",
          "description": "base64 (URL-safe alphabet in adk-python, #825)."
        },
        "functionCall": {
          "$ref": "#/definitions/functionCall"
        },
        "functionResponse": {
          "$ref": "#/definitions/functionResponse"
        },
        "inlineData": {
          "$ref": "#/definitions/blob"
        },
        "fileData": {
          "$ref": "#/definitions/fileData"
        },
        "executableCode": {
          "$ref": "#/definitions/executableCode"
        },
        "codeExecutionResult": {
          "$ref": "#/definitions/codeExecutionResult"
        },
        "videoMetadata": {
          "type": "object"
        }
      }
    },
    "functionCall": {
      "type": "object",
      "if": {
        "not": {
          "required": [
            "partialArgs"
          ]
        }
      },
      "then": {
        "required": [
          "name"
        ]
      },
      "description": "Key order on adk-js: name, args, id. id is \"adk-\" + uuid4, generated by ADK. genai's FunctionCall.name is optional: adk-python 2.x's progressive SSE streams a call's argument chunks as partial events with partialArgs and no name (the first chunk names the call; adk-python-facts: functionCall{id,args,name,partialArgs?,willContinue?}).",
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1
        },
        "args": {
          "type": "object"
        },
        "id": {
          "type": "string"
        },
        "partialArgs": {
          "type": "array"
        },
        "willContinue": {
          "type": "boolean"
        }
      }
    },
    "functionResponse": {
      "type": "object",
      "required": [
        "name",
        "response"
      ],
      "description": "Key order on adk-js: id, name, response. A scalar tool result becomes {result}, an array {results}, a thrown error {error} (adk-wire-format.md §4).",
      "properties": {
        "id": {
          "type": "string"
        },
        "name": {
          "type": "string",
          "minLength": 1
        },
        "response": {
          "type": "object"
        },
        "willContinue": {
          "type": "boolean"
        },
        "scheduling": {
          "type": "string"
        },
        "parts": {
          "type": "array"
        }
      }
    },
    "blob": {
      "type": "object",
      "required": [
        "data"
      ],
      "properties": {
        "mimeType": {
          "type": "string"
        },
        "data": {
          "type": "string",
          "pattern": "^[A-Za-z0-9+/_=-]*$",
          "description": "base64 or base64url."
        },
        "displayName": {
          "type": "string"
        }
      }
    },
    "fileData": {
      "type": "object",
      "required": [
        "fileUri"
      ],
      "properties": {
        "mimeType": {
          "type": "string"
        },
        "fileUri": {
          "type": "string"
        },
        "displayName": {
          "type": "string"
        }
      }
    },
    "executableCode": {
      "type": "object",
      "required": [
        "code"
      ],
      "properties": {
        "code": {
          "type": "string"
        },
        "language": {
          "type": "string"
        }
      }
    },
    "codeExecutionResult": {
      "type": "object",
      "required": [
        "outcome"
      ],
      "properties": {
        "outcome": {
          "type": "string"
        },
        "output": {
          "type": "string"
        }
      }
    },
    "usageMetadata": {
      "type": "object",
      "description": "Token counts as the model returned them (adk-python-facts.md §2.1).",
      "properties": {
        "promptTokenCount": {
          "type": "integer",
          "minimum": 0
        },
        "candidatesTokenCount": {
          "type": "integer",
          "minimum": 0
        },
        "totalTokenCount": {
          "type": "integer",
          "minimum": 0
        },
        "thoughtsTokenCount": {
          "type": "integer",
          "minimum": 0
        },
        "cachedContentTokenCount": {
          "type": "integer",
          "minimum": 0
        },
        "toolUsePromptTokenCount": {
          "type": "integer",
          "minimum": 0
        },
        "promptTokensDetails": {
          "$ref": "#/definitions/modalityTokenCounts"
        },
        "candidatesTokensDetails": {
          "$ref": "#/definitions/modalityTokenCounts"
        },
        "cacheTokensDetails": {
          "$ref": "#/definitions/modalityTokenCounts"
        },
        "toolUsePromptTokensDetails": {
          "$ref": "#/definitions/modalityTokenCounts"
        },
        "trafficType": {
          "type": "string"
        }
      }
    },
    "modalityTokenCounts": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "modality": {
            "type": "string"
          },
          "tokenCount": {
            "type": "integer",
            "minimum": 0
          }
        }
      }
    },
    "auditMetadata": {
      "type": "array",
      "description": "The audit trail of the event's invocation, injected by /run_sse_enhanced (seed 000 §2.2B, §2.2C). Each item is an audit event; validate items fully against the audit-event schema.",
      "items": {
        "type": "object",
        "required": [
          "event_type"
        ],
        "properties": {
          "event_type": {
            "enum": [
              "tool_invocation",
              "tool_response",
              "tool_error",
              "mcp_fetch",
              "data_load",
              "reasoning_step",
              "confidence_calc"
            ]
          }
        }
      }
    }
  }
} as const;

export type AdkEvent = FromSchema<typeof adkEventSchema>;
