// Generated from schemas/audit-event.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const auditEventSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/audit-event.schema.json",
  "title": "AuditEvent",
  "description": "One audit event of the AuditEventBridge: the 7 types of seed 000 §3.1 in the envelope of seed 000 §3.2 (event_type, event_id, timestamp, correlation_id, agent, session_id, parent_event_id, payload). The payload's shape depends on event_type (if/then below, one per type, so a failure names only the payload rules of its own type). The abbreviated flow form of seed 000 §9 ({event_type, tool, invocation_id}) is an illustration, not an envelope: the audit bridge accepts it, this schema does not. Additional properties are allowed (seed 000 §2.2A's dataclasses carry tool, parameters, invocation_id at the top level). An entry written as seed 000 §2.2A's dataclasses themselves (flat, no payload, keyed by invocation_id; §2.2C's AuditTrailEvent, §9 step 3) is #/definitions/dataclassEvent: the scenario linter validates an entry without a payload against it.",
  "type": "object",
  "required": [
    "event_type",
    "event_id",
    "timestamp",
    "correlation_id",
    "agent",
    "session_id",
    "payload"
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
      ],
      "description": "seed 000 §3.1 Audit Event Types (7 Core Types)."
    },
    "event_id": {
      "type": "string",
      "minLength": 1,
      "description": "e.g. \"evt_002\" (seed 000 §3.2)."
    },
    "timestamp": {
      "type": "string",
      "format": "date-time",
      "description": "ISO-8601 with a zone, e.g. \"2025-12-27T10:30:05.234Z\" (seed 000 §3.2; §1.1 uses datetime.now(timezone.utc).isoformat())."
    },
    "correlation_id": {
      "type": "string",
      "minLength": 1,
      "description": "The ADK invocationId the event belongs to, e.g. \"inv_abc123\" (seed 000 §3.2; the bridge keys its buffer by it, §2.1 \"Key: invocationId\")."
    },
    "invocation_id": {
      "type": "string",
      "minLength": 1,
      "description": "seed 000 §2.2A / §9 name for the same id; when present the audit bridge keys by it."
    },
    "agent": {
      "type": "string",
      "minLength": 1,
      "description": "The agent whose callback emitted it, e.g. \"trail_assessor\"."
    },
    "session_id": {
      "type": "string",
      "description": "e.g. \"sess_xyz\" (seed 000 §3.2)."
    },
    "parent_event_id": {
      "type": [
        "string",
        "null"
      ],
      "description": "The audit event this one follows from, e.g. the tool_invocation of a tool_response (seed 000 §3.2); absent or null for a root event."
    },
    "payload": {
      "type": "object"
    }
  },
  "allOf": [
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_invocation"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/toolInvocationPayload"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_response"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/toolResponsePayload"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_error"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/toolErrorPayload"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "mcp_fetch"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/dataSourcePayload"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "data_load"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/dataSourcePayload"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "reasoning_step"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/reasoningStepPayload"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "confidence_calc"
          }
        }
      },
      "then": {
        "properties": {
          "payload": {
            "$ref": "#/definitions/confidenceCalcPayload"
          }
        }
      }
    }
  ],
  "definitions": {
    "dataclassEvent": {
      "type": "object",
      "description": "seed 000 §2.2A's ToolInvocationEvent and ToolResponseEvent as dataclasses.asdict writes them: every field at the top level, keyed by invocation_id, no event_id or payload (§2.2C's AuditTrailEvent reads them so; §9 step 3 shows {\"event_type\": \"tool_response\", \"confidence\": 0.90, \"invocation_id\": \"abc-123\"}).",
      "required": [
        "event_type",
        "timestamp",
        "agent",
        "tool",
        "invocation_id"
      ],
      "properties": {
        "event_type": {
          "enum": [
            "tool_invocation",
            "tool_response"
          ],
          "description": "The two dataclasses of seed 000 §2.2A."
        },
        "timestamp": {
          "type": "string",
          "format": "date-time"
        },
        "agent": {
          "type": "string",
          "minLength": 1
        },
        "tool": {
          "type": "string",
          "minLength": 1
        },
        "invocation_id": {
          "type": "string",
          "minLength": 1
        },
        "session_id": {
          "type": "string"
        },
        "parameters": {
          "type": "object"
        },
        "status": {
          "type": "string"
        },
        "confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "data_sources": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "reasoning_chain": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "allOf": [
        {
          "if": {
            "properties": {
              "event_type": {
                "const": "tool_invocation"
              }
            }
          },
          "then": {
            "required": [
              "parameters",
              "session_id"
            ]
          }
        },
        {
          "if": {
            "properties": {
              "event_type": {
                "const": "tool_response"
              }
            }
          },
          "then": {
            "required": [
              "status",
              "confidence",
              "data_sources",
              "reasoning_chain"
            ]
          }
        }
      ]
    },
    "toolInvocationPayload": {
      "type": "object",
      "description": "tool_invocation: a tool call initiated, emitted by before_tool_audit (seed 000 §3.1; fields from §1.1 and §2.2A ToolInvocationEvent: tool, parameters).",
      "required": [
        "tool_name"
      ],
      "properties": {
        "tool_name": {
          "type": "string",
          "minLength": 1
        },
        "skill_id": {
          "type": "string"
        },
        "parameters": {
          "type": "object",
          "description": "The tool's arguments."
        },
        "enforcement": {
          "type": "string",
          "description": "e.g. \"API-level mode=ANY\" (seed 000 §1.1)."
        }
      }
    },
    "toolResponsePayload": {
      "type": "object",
      "description": "tool_response: a tool completed, emitted by after_tool_audit; maps to confidence, citations, reasoning (seed 000 §3.1, payload exactly as §3.2).",
      "required": [
        "tool_name",
        "status"
      ],
      "properties": {
        "tool_name": {
          "type": "string",
          "minLength": 1
        },
        "skill_id": {
          "type": "string"
        },
        "status": {
          "type": "string",
          "description": "e.g. \"success\"."
        },
        "execution_time_ms": {
          "type": "number",
          "minimum": 0
        },
        "confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "Becomes proof_layer.confidence (seed 000 §3.3 rule 1)."
        },
        "data_sources": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Become citations (seed 000 §7)."
        },
        "reasoning_steps": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Extend the reasoning chain (seed 000 §3.3 rule 3)."
        }
      }
    },
    "toolErrorPayload": {
      "type": "object",
      "description": "tool_error: a tool failed, emitted by on_tool_error_audit; maps to confidence=0.0 (seed 000 §3.1).",
      "required": [
        "tool_name",
        "error"
      ],
      "properties": {
        "tool_name": {
          "type": "string",
          "minLength": 1
        },
        "skill_id": {
          "type": "string"
        },
        "error": {
          "type": "string",
          "description": "The error message."
        },
        "error_type": {
          "type": "string",
          "description": "The exception class, when known."
        }
      }
    },
    "dataSourcePayload": {
      "type": "object",
      "description": "mcp_fetch (MCP data retrieval, MCP wrapper) and data_load (fixture loaded, skill script): map to citations and tier (seed 000 §3.1). Fields from seed 000 §3.3 rule 2 (fire_id, data_source_label) and rule 4 (data_source_label, data_confidence, data_tier, notes).",
      "required": [
        "data_source_label",
        "data_confidence",
        "data_tier"
      ],
      "properties": {
        "data_source_label": {
          "type": "string",
          "minLength": 1,
          "description": "Becomes the citation excerpt and the ledger input's source."
        },
        "data_confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "data_tier": {
          "type": "integer",
          "minimum": 1,
          "maximum": 4,
          "description": "seed 002 §2.1 tiers; seed 000 §3.4 puts Cedar Creek fixtures in tier 3."
        },
        "fire_id": {
          "type": "string",
          "description": "Becomes the citation id and uri ranger://fixtures/<fire_id> (rule 2)."
        },
        "notes": {
          "type": "string"
        }
      }
    },
    "reasoningStepPayload": {
      "type": "object",
      "description": "reasoning_step: logic logged by skill execution; maps to reasoning_chain (seed 000 §3.1, §3.3 rule 3: event.payload.description).",
      "required": [
        "description"
      ],
      "properties": {
        "description": {
          "type": "string",
          "minLength": 1
        },
        "sequence": {
          "type": "integer",
          "minimum": 0,
          "description": "Order within the invocation, when the emitter numbers its steps (seed 000 §4.3 ReasoningStep.sequence)."
        }
      }
    },
    "confidenceCalcPayload": {
      "type": "object",
      "description": "confidence_calc: confidence computed by skill aggregation; maps to confidence_ledger (seed 000 §3.1).",
      "required": [
        "confidence",
        "inputs"
      ],
      "properties": {
        "confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "inputs": {
          "type": "array",
          "description": "The ledger inputs the confidence was computed from (seed 000 §3.3 rule 4 shape).",
          "items": {
            "type": "object",
            "required": [
              "source",
              "confidence",
              "tier"
            ],
            "properties": {
              "source": {
                "type": "string"
              },
              "confidence": {
                "type": "number",
                "minimum": 0,
                "maximum": 1
              },
              "tier": {
                "type": "integer",
                "minimum": 1,
                "maximum": 4
              },
              "notes": {
                "type": "string"
              }
            }
          }
        },
        "analysis_confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "recommendation_confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        }
      }
    }
  }
} as const;

export type AuditEvent = FromSchema<typeof auditEventSchema>;
