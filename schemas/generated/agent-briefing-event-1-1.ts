// Generated from schemas/agent-briefing-event-1-1.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const agentBriefingEvent11Schema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/agent-briefing-event-1-1.schema.json",
  "title": "AgentBriefingEvent 1.1",
  "description": "Spec 1.1 of the AgentBriefingEvent (docs/versioning.md \"Spec versions\"; `--spec 1.1`, or detected from the events' schema_version). No seed states it whole: seed 000 §1.1 names the \"Proof Layer Schema (v1.1.0)\" (confidence_ledger) and §8 Decision 3 streams `status_update` and `insight` events; the rest is field evidence, the deployed RANGER Command Console (jvalenzano/ranger-twin @096f11f): its transformer (apps/command-console/src/services/adkEventTransformer.ts) writes `schema_version: '1.1.0'`, lowercase types, `severity`, `ui_binding` and `content.suggested_actions`; its types (src/types/briefing.ts, \"Schema Version: 1.1.0\") declare them; and its consumer keeps only events that pass isAgentBriefingEvent (event_id, correlation_id, timestamp, type, source_agent, severity, ui_binding, content, proof_layer present) and renders `content.suggested_actions.length` and `SEVERITY_STYLES[event.severity]`. Those fields are required here. Seed 002 §2's fields keep their meaning; proof_layer.confidence stays optional (seed 000 §7 \"no inference\": a number no data states is never required), and citations accept both seed 002's and seed 000 §3.3's field names, as in 1.0.",
  "type": "object",
  "required": [
    "schema_version",
    "event_id",
    "correlation_id",
    "timestamp",
    "type",
    "source_agent",
    "severity",
    "ui_binding",
    "content",
    "proof_layer"
  ],
  "properties": {
    "schema_version": {
      "type": "string",
      "pattern": "^1\\.1\\.[0-9]+$",
      "description": "\"1.1.0\" as the deployed transformer writes it (adkEventTransformer.ts `schema_version: '1.1.0'`); any 1.1.x patch."
    },
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
    "timestamp": {
      "type": "string",
      "description": "ISO-8601 time of the event (ranger-twin briefing.ts `timestamp: string; // ISO-8601`; the consumer's isAgentBriefingEvent needs it)."
    },
    "type": {
      "enum": [
        "insight",
        "alert",
        "action_required",
        "status_update"
      ],
      "description": "Seed 002 §2's four types as 1.1 spells them (ranger-twin `EventType = 'alert' | 'insight' | 'action_required' | 'status_update'`; seed 000 §8 Decision 3 `status_update`, `insight`): insight = INSIGHT, alert = ALERT, action_required = ACTION, status_update = STATUS."
    },
    "source_agent": {
      "type": "string",
      "description": "The Agent (Coordinator or Specialist) emitting the event. (seed 002 §2)"
    },
    "skill_id": {
      "type": "string",
      "description": "The specific Skill package (from the Skills Library) that performed the logic. (seed 002 §2)"
    },
    "severity": {
      "enum": [
        "info",
        "warning",
        "critical"
      ],
      "description": "Severity level for UI prioritization (ranger-twin `Severity = 'info' | 'warning' | 'critical'`). Which value an event gets is the implementation's (no seed says)."
    },
    "ui_binding": {
      "type": "object",
      "required": [
        "target"
      ],
      "description": "How the Command Console renders the event (ranger-twin `UIBinding`). Which target an event gets is the implementation's.",
      "properties": {
        "target": {
          "enum": [
            "map_highlight",
            "rail_pulse",
            "panel_inject",
            "modal_interrupt"
          ]
        },
        "geo_reference": {
          "type": [
            "object",
            "null"
          ],
          "description": "A GeoJSON Feature, or null.",
          "required": [
            "type",
            "geometry"
          ],
          "properties": {
            "type": {
              "const": "Feature"
            },
            "geometry": {
              "type": "object"
            },
            "properties": {
              "type": "object"
            }
          }
        }
      }
    },
    "content": {
      "type": "object",
      "required": [
        "summary",
        "suggested_actions"
      ],
      "description": "seed 002 §2 content, plus 1.1's suggested_actions (ranger-twin `EventContent`; InsightCard reads `suggested_actions.length`, so an empty list is written as []).",
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
        },
        "suggested_actions": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/suggestedAction"
          }
        }
      }
    },
    "proof_layer": {
      "type": "object",
      "description": "seed 002 §2 proof_layer with seed 000 §1.1 v1.1.0's confidence_ledger. Present on every 1.1 event (the consumer's isAgentBriefingEvent needs an object); an event with no proof writes `{\"reasoning_chain\": [], \"citations\": []}`.",
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
    },
    "suggestedAction": {
      "type": "object",
      "required": [
        "action_id",
        "label",
        "target_agent",
        "description",
        "rationale"
      ],
      "description": "An action suggested for the user or another agent (ranger-twin `SuggestedAction`: every field required).",
      "properties": {
        "action_id": {
          "type": "string"
        },
        "label": {
          "type": "string"
        },
        "target_agent": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "rationale": {
          "type": "string"
        }
      }
    }
  }
} as const;

export type AgentBriefingEvent11 = FromSchema<typeof agentBriefingEvent11Schema>;
