// Generated from schemas/agent-briefing-event.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const agentBriefingEventSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/agent-briefing-event.schema.json",
  "title": "AgentBriefingEvent",
  "description": "The primary unit of communication from RANGER agents to the Command Console UI. Normative core: seed 002 §2 (\"The following JSON schema defines the mandatory fields for any event destined for the UI\"), copied as given, additional properties allowed as in the seed. Optional additions: seed 000 §1.1 Proof Layer Schema (v1.1.0) confidence_ledger and the seed 000 §3.3 rule 2 citation fields.",
  "type": "object",
  "required": [
    "event_id",
    "correlation_id",
    "type",
    "source_agent",
    "content"
  ],
  "properties": {
    "event_id": {
      "type": "string",
      "description": "UUID for this specific event. (seed 002 §2; the seed states no format, so none is enforced here: ABE-ID-001 checks it.)"
    },
    "correlation_id": {
      "type": "string",
      "description": "Session/Incident ID to group related insights. (seed 002 §2; it persists throughout a multi-agent thread, seed 002 §4.2 item 4.)"
    },
    "parent_event_id": {
      "type": [
        "string",
        "null"
      ],
      "description": "ID of the event that triggered this delegation. (seed 002 §2)"
    },
    "type": {
      "enum": [
        "INSIGHT",
        "ALERT",
        "ACTION",
        "STATUS"
      ],
      "description": "Determines UI rendering priority. (seed 002 §2; lifecycle mapping in seed 002 §4.1)"
    },
    "source_agent": {
      "type": "string",
      "description": "The Agent (Coordinator or Specialist) emitting the event. (seed 002 §2)"
    },
    "skill_id": {
      "type": "string",
      "description": "The specific Skill package (from the Skills Library) that performed the logic. (seed 002 §2)"
    },
    "content": {
      "type": "object",
      "required": [
        "summary"
      ],
      "description": "seed 002 §2 content.",
      "properties": {
        "summary": {
          "type": "string",
          "description": "One-line summary for toast/header. (seed 002 §2)"
        },
        "detail": {
          "type": "string",
          "description": "Main body text (Markdown supported). (seed 002 §2)"
        },
        "degradation_notice": {
          "type": "string",
          "description": "Explanation if data quality is degraded (Tier 2/3). (seed 002 §2, §2.1)"
        }
      }
    },
    "proof_layer": {
      "type": "object",
      "description": "seed 002 §2 proof_layer, plus seed 000 §1.1 v1.1.0's optional confidence_ledger.",
      "properties": {
        "confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "Overall 0-1; its value names the data-quality tier of seed 002 §2.1 (1: .90-1.00, 2: .70-.89, 3: .10-.69, 4: 0.00)."
        },
        "reasoning_chain": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Step-by-step logic trail. (seed 002 §2; seed 000 §3.3 rule 3 fills it from reasoning_step audit events)"
        },
        "citations": {
          "type": "array",
          "description": "seed 002 §2 citations (source, reference_id, snippet); seed 000 §3.3 rule 2 builds them with source_type, id, uri, excerpt, so both sets are described.",
          "items": {
            "$ref": "#/definitions/citation"
          }
        },
        "confidence_ledger": {
          "type": [
            "object",
            "null"
          ],
          "description": "Per-input confidence (seed 000 §1.1 `confidence_ledger?: ConfidenceLedger`, built by seed 000 §2.2D buildConfidenceLedger and §3.3 rule 4). null is allowed: seed 000 §1.1 reports it as \"Currently always null\". Only inputs is required: the seed 000 §9 step 6 example carries inputs alone.",
          "required": [
            "inputs"
          ],
          "properties": {
            "inputs": {
              "type": "array",
              "items": {
                "$ref": "#/definitions/ledgerInput"
              }
            },
            "analysis_confidence": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "The tool_response confidence (seed 000 §3.3 rule 4)."
            },
            "recommendation_confidence": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "The recommendation confidence the audit trail states (a confidence_calc entry), else equal to analysis_confidence (seed 000 §2.2D). Never derived: seed 000 §3.3 rule 4 subtracts 0.03, a number no data states, against §7 \"no inference\" (mapping rule MAP-PROOF-004)."
            }
          }
        }
      }
    }
  },
  "definitions": {
    "citation": {
      "type": "object",
      "description": "One citation. No field is required: seed 002 §2 lists none.",
      "properties": {
        "source": {
          "type": "string",
          "description": "e.g., 'Sentinel-2' (seed 002 §2)"
        },
        "reference_id": {
          "type": "string",
          "description": "seed 002 §2"
        },
        "snippet": {
          "type": "string",
          "description": "seed 002 §2"
        },
        "source_type": {
          "type": "string",
          "description": "e.g. 'RANGER-Fixtures' (seed 000 §3.3 rule 2)"
        },
        "id": {
          "type": "string",
          "description": "The fire_id of the data_load/mcp_fetch event (seed 000 §3.3 rule 2)"
        },
        "uri": {
          "type": "string",
          "description": "e.g. 'ranger://fixtures/<fire_id>' (seed 000 §3.3 rule 2)"
        },
        "excerpt": {
          "type": "string",
          "description": "The data_source_label (seed 000 §3.3 rule 2)"
        }
      }
    },
    "ledgerInput": {
      "type": "object",
      "description": "One data source behind the analysis (seed 000 §3.3 rule 4: source, confidence, tier, notes).",
      "required": [
        "source",
        "confidence",
        "tier"
      ],
      "properties": {
        "source": {
          "type": "string",
          "description": "The data_source_label of a data_load/mcp_fetch event."
        },
        "confidence": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "tier": {
          "type": "integer",
          "minimum": 1,
          "maximum": 4,
          "description": "Data tier, seed 002 §2.1 (1 Authoritative, 2 Derived, 3 Historical, 4 Failure); seed 000 §3.4 classifies the fixtures."
        },
        "notes": {
          "type": "string",
          "description": "Free text; seed 000 §3.3 rule 4 defaults it to \"\"."
        }
      }
    }
  }
} as const;

export type AgentBriefingEvent = FromSchema<typeof agentBriefingEventSchema>;
