// Generated from schemas/sse-error-frame.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const sseErrorFrameSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/sse-error-frame.schema.json",
  "title": "SseErrorFrame",
  "description": "The JSON of an error `data:` line inside an SSE stream that already answered HTTP 200: the ADK server's own error line (adk-wire-format.md §6; adk-python-facts.md §1.3 step 9) or one of the gateway's error events (seed 004 § Error Handling). Exactly one named definition matches. The Python Gen A unescaped line (`{\"error\": \"bad \"quote\"\"}`) is not JSON and so matches nothing here.",
  "oneOf": [
    {
      "$ref": "#/definitions/adkError"
    },
    {
      "$ref": "#/definitions/adkStructuredError"
    },
    {
      "$ref": "#/definitions/adkEmptyError"
    },
    {
      "$ref": "#/definitions/gatewayTimeout"
    },
    {
      "$ref": "#/definitions/gatewayUpstreamStatus"
    },
    {
      "$ref": "#/definitions/gatewayStreamError"
    }
  ],
  "definitions": {
    "adkError": {
      "title": "ADK error line",
      "description": "`data: {\"error\":\"msg\"}` (adk-js, compact) or `data: {\"error\": \"msg\"}` (adk-python Gen C, json.dumps spacing): the exception message, then EOF (adk-wire-format.md §6, §7; adk-python-facts.md §1.3 step 9).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "error"
      ],
      "properties": {
        "error": {
          "type": "string"
        }
      }
    },
    "adkStructuredError": {
      "title": "adk-python Gen D error line",
      "description": "`{\"error\": \"<ExcType>: <msg>\", \"error_details\": {error_type, error_message, timestamp[, stacktrace]}}`; the error_details keys are snake_case, stacktrace only with DEBUG logging (adk-python-facts.md §1.3 step 9).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "error",
        "error_details"
      ],
      "properties": {
        "error": {
          "type": "string"
        },
        "error_details": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "error_type",
            "error_message",
            "timestamp"
          ],
          "properties": {
            "error_type": {
              "type": "string",
              "description": "The exception class name, e.g. ValueError."
            },
            "error_message": {
              "type": "string"
            },
            "timestamp": {
              "type": "number",
              "description": "Float seconds since the epoch."
            },
            "stacktrace": {
              "type": "string"
            }
          }
        }
      }
    },
    "adkEmptyError": {
      "title": "adk-js error line for a non-Error throw",
      "description": "`data: {}`: adk-js writes {error: e.message} and a thrown non-Error value has no message, so JSON.stringify drops the key (adk-wire-format.md §6, last row).",
      "type": "object",
      "maxProperties": 0
    },
    "gatewayTimeout": {
      "title": "Gateway TIMEOUT event",
      "description": "seed 004 § Timeout Error (300s): {\"error\": \"Request timeout after 300 seconds\", \"error_code\": \"TIMEOUT\", \"timestamp\": 1729350300.123}, sent in a stream that started with HTTP 200.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "error",
        "error_code",
        "timestamp"
      ],
      "properties": {
        "error": {
          "type": "string"
        },
        "error_code": {
          "const": "TIMEOUT"
        },
        "timestamp": {
          "type": "number",
          "description": "Float seconds since the epoch."
        }
      }
    },
    "gatewayUpstreamStatus": {
      "title": "Gateway upstream HTTP status event",
      "description": "seed 004 § HTTP Status Errors (4xx, 5xx): {\"error\": \"ADK upstream error: 500\", \"status_code\": 500, \"detail\": \"Internal Server Error\", \"timestamp\": 1729350000.456}.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "error",
        "status_code",
        "detail",
        "timestamp"
      ],
      "properties": {
        "error": {
          "type": "string"
        },
        "status_code": {
          "type": "integer",
          "minimum": 400,
          "maximum": 599
        },
        "detail": {
          "type": "string",
          "description": "The seed shows a reason phrase (\"Internal Server Error\"); a gateway may put the upstream body text here."
        },
        "timestamp": {
          "type": "number"
        }
      }
    },
    "gatewayStreamError": {
      "title": "Gateway STREAM_ERROR event",
      "description": "seed 004 § General Stream Errors: {\"error\": \"Stream error description\", \"error_code\": \"STREAM_ERROR\", \"timestamp\": 1729350000.789}.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "error",
        "error_code",
        "timestamp"
      ],
      "properties": {
        "error": {
          "type": "string"
        },
        "error_code": {
          "const": "STREAM_ERROR"
        },
        "timestamp": {
          "type": "number"
        }
      }
    }
  }
} as const;

export type SseErrorFrame = FromSchema<typeof sseErrorFrameSchema>;
