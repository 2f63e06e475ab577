// Generated from schemas/run-agent-request.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const runAgentRequestSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/run-agent-request.schema.json",
  "title": "RunAgentRequest",
  "description": "The body of POST /run_sse, as seed 004 § Request Format (Field Requirements table, TypeScript interface, Python model) defines it, camelCase. What the real servers accept beyond it: adk-python reads snake_case aliases too (app_name, new_message...), ignores unknown fields, and adds functionCallEventId and (Gen D) customMetadata; Gen C makes newMessage optional for resumes and requires appName to match ^[a-zA-Z0-9_]+$ (adk-python-facts.md §1.2). adk-js reads camelCase only, ignores invocationId, defaults a missing role to \"user\" and validates nothing: an empty parts array becomes an in-stream error with HTTP 200 (adk-wire-format.md §2, §6). Additional properties are therefore allowed.",
  "type": "object",
  "required": [
    "appName",
    "userId",
    "sessionId",
    "newMessage"
  ],
  "properties": {
    "appName": {
      "type": "string",
      "description": "Application identifier (e.g., \"vana\"). Required (seed 004 Field Requirements)."
    },
    "userId": {
      "type": "string",
      "description": "User identifier for session tracking. Required."
    },
    "sessionId": {
      "type": "string",
      "description": "Unique session identifier. Required."
    },
    "newMessage": {
      "type": "object",
      "description": "ADK Content object with parts array. Required.",
      "required": [
        "parts",
        "role"
      ],
      "properties": {
        "parts": {
          "type": "array",
          "minItems": 1,
          "description": "Array of content parts (text, functionCall, etc.). Required and non-empty: both servers fail the run on \"No parts in the newMessage.\"",
          "items": {
            "$ref": "#/definitions/part"
          }
        },
        "role": {
          "const": "user",
          "description": "Message role (always \"user\" for input). Required by seed 004."
        }
      }
    },
    "streaming": {
      "type": "boolean",
      "description": "Enable streaming (default: false). Optional."
    },
    "stateDelta": {
      "type": "object",
      "description": "Optional state changes to apply."
    },
    "invocationId": {
      "type": "string",
      "description": "Optional ID for resuming long-running functions (adk-js ignores it)."
    }
  },
  "definitions": {
    "part": {
      "type": "object",
      "minProperties": 1,
      "description": "A genai Part: seed 004's interface shows {text}; a resume sends {functionResponse: {id, name, response}} (adk-python-facts.md §1.6).",
      "properties": {
        "text": {
          "type": "string",
          "description": "User message content."
        },
        "functionResponse": {
          "type": "object",
          "required": [
            "name",
            "response"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "response": {
              "type": "object"
            }
          }
        },
        "functionCall": {
          "type": "object",
          "required": [
            "name"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "type": "string"
            },
            "args": {
              "type": "object"
            }
          }
        },
        "inlineData": {
          "type": "object",
          "required": [
            "data"
          ],
          "properties": {
            "mimeType": {
              "type": "string"
            },
            "data": {
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
            }
          }
        }
      }
    }
  }
} as const;

export type RunAgentRequest = FromSchema<typeof runAgentRequestSchema>;
