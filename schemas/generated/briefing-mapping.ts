// Generated from schemas/briefing-mapping.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const briefingMappingSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/briefing-mapping.schema.json",
  "title": "BriefingMapping",
  "description": "The one normative ADK-to-AgentBriefingEvent mapping (harness/mapping/briefing-mapping.json): every rule with its id, the seed sentence it implements, what a certification compares exactly and what it leaves free, the kit's choice where the seeds are silent or disagree, and worked examples (a run, the frames the mock renders for it, the briefings outline every implementation gives). docs/briefing-mapping.md is generated from it; the reference transformer, the harness's checks and the harness's independent expected model are each tested against every worked example.",
  "type": "object",
  "required": [
    "title",
    "intro",
    "fields",
    "sections"
  ],
  "additionalProperties": false,
  "properties": {
    "$schema": {
      "type": "string"
    },
    "title": {
      "type": "string"
    },
    "intro": {
      "type": "string",
      "description": "Markdown: what the mapping is and how it is enforced."
    },
    "fields": {
      "type": "array",
      "description": "Every field of an emitted event: its value, and whether certification compares it.",
      "items": {
        "type": "object",
        "required": [
          "field",
          "value",
          "compared"
        ],
        "additionalProperties": false,
        "properties": {
          "field": {
            "type": "string"
          },
          "value": {
            "type": "string",
            "description": "Markdown: what the field holds."
          },
          "compared": {
            "enum": [
              "exact",
              "checked",
              "free"
            ],
            "description": "exact: equal to the rule's value; checked: a requirement checks a property of it (named in `how`); free: any schema-valid value."
          },
          "how": {
            "type": "string",
            "description": "What a certification checks of it, with the requirement ids."
          },
          "introducedIn": {
            "enum": [
              "1.0",
              "1.1"
            ],
            "description": "The AgentBriefingEvent spec version that brought the field in (absent: every version; docs/versioning.md \"Spec versions\")."
          },
          "removedIn": {
            "enum": [
              "1.0",
              "1.1"
            ],
            "description": "The spec version that dropped it."
          },
          "versions": {
            "type": "object",
            "description": "What differs in a spec version: its value, comparison or check there (the rest is as above).",
            "propertyNames": {
              "enum": [
                "1.0",
                "1.1"
              ]
            },
            "additionalProperties": {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "value": {
                  "type": "string"
                },
                "compared": {
                  "enum": [
                    "exact",
                    "checked",
                    "free"
                  ]
                },
                "how": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "sections": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "heading",
          "rules"
        ],
        "additionalProperties": false,
        "properties": {
          "heading": {
            "type": "string"
          },
          "body": {
            "type": "string",
            "description": "Markdown before the section's rules."
          },
          "rules": {
            "type": "array",
            "items": {
              "$ref": "#/definitions/rule"
            }
          }
        }
      }
    }
  },
  "definitions": {
    "rule": {
      "type": "object",
      "required": [
        "id",
        "when",
        "then",
        "source",
        "requirements",
        "compared",
        "free"
      ],
      "additionalProperties": false,
      "properties": {
        "id": {
          "type": "string",
          "pattern": "^MAP-[A-Z]+-[0-9]{3}$",
          "description": "Stable, never reused."
        },
        "when": {
          "type": "string",
          "description": "Markdown: what the ADK stream says."
        },
        "then": {
          "type": "string",
          "description": "Markdown: the briefings it gives."
        },
        "notes": {
          "type": "string"
        },
        "source": {
          "type": "object",
          "required": [
            "doc",
            "section",
            "quote"
          ],
          "additionalProperties": false,
          "properties": {
            "doc": {
              "enum": [
                "seed-000",
                "seed-001",
                "seed-002",
                "seed-003",
                "seed-004",
                "adk-wire-format",
                "adk-python-facts",
                "adk-field-2026-11"
              ]
            },
            "section": {
              "type": "string"
            },
            "quote": {
              "type": "string",
              "description": "The sentence of the source the rule implements, verbatim."
            }
          }
        },
        "choice": {
          "type": "string",
          "description": "Where the seeds are silent or disagree: what they say, and the kit's choice. The checks accept only what it allows."
        },
        "requirements": {
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^[A-Z]+(-[A-Z]+)+-[0-9]{3}$"
          },
          "description": "The requirement ids whose checks enforce the rule."
        },
        "compared": {
          "type": "string",
          "description": "What a certification compares exactly."
        },
        "free": {
          "type": "string",
          "description": "What is left to the implementation."
        },
        "examples": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/example"
          }
        }
      }
    },
    "example": {
      "type": "object",
      "required": [
        "title",
        "outline"
      ],
      "additionalProperties": false,
      "properties": {
        "title": {
          "type": "string",
          "description": "A statement of what the example shows."
        },
        "scenario": {
          "type": "string",
          "description": "A corpus scenario id whose run is the example's input (instead of steps)."
        },
        "dialect": {
          "enum": [
            "adk-js",
            "adk-python"
          ]
        },
        "streaming": {
          "type": "boolean"
        },
        "enhanced": {
          "type": "boolean",
          "description": "The run is served on /run_sse_enhanced (audit metadata, [DONE])."
        },
        "steps": {
          "type": "array",
          "items": {
            "type": "object"
          },
          "description": "A run script: scenario.schema.json `upstream.steps`."
        },
        "outcome": {
          "enum": [
            "complete",
            "error",
            "cut"
          ]
        },
        "finalText": {
          "type": "string"
        },
        "outline": {
          "type": "array",
          "description": "Every briefing, in order: type, state (or none), source_agent, and the proof numbers the rule fixes.",
          "items": {
            "type": "object",
            "required": [
              "type"
            ],
            "additionalProperties": false,
            "properties": {
              "type": {
                "enum": [
                  "INSIGHT",
                  "ALERT",
                  "ACTION",
                  "STATUS"
                ]
              },
              "state": {
                "enum": [
                  "THINKING",
                  "DELEGATING",
                  "EXECUTING",
                  "SYNTHESIZING",
                  "COMPLETE",
                  "ERROR"
                ]
              },
              "source_agent": {
                "type": "string"
              },
              "confidence": {
                "type": [
                  "number",
                  "null"
                ],
                "description": "null: the event states no confidence."
              },
              "citations": {
                "type": "integer",
                "minimum": 0
              },
              "citationSources": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              }
            }
          }
        },
        "ledger": {
          "type": "object",
          "description": "The confidence_ledger of the outline's `ledgerOf`-th event (default: the last INSIGHT with a ledger), compared exactly."
        },
        "ledgerOf": {
          "type": "integer",
          "minimum": 0
        }
      }
    }
  }
} as const;

export type BriefingMapping = FromSchema<typeof briefingMappingSchema>;
