// Generated from schemas/scenario.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const scenarioSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/scenario.schema.json",
  "title": "Scenario",
  "description": "One scripted upstream run with its expectations. A dialect renders `upstream.steps` into the exact wire events a real ADK server would send; `upstream.kind: bytes` scripts raw bytes for misbehaviours no real server renders by itself.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "id",
    "title",
    "family",
    "tags",
    "specRefs",
    "dialect",
    "replays",
    "session",
    "request",
    "upstream",
    "expect"
  ],
  "properties": {
    "$schema": {
      "type": "string"
    },
    "id": {
      "type": "string",
      "pattern": "^[a-z0-9_]+$",
      "maxLength": 64,
      "description": "Unique; also the ADK app name that selects this scenario on the mock."
    },
    "title": {
      "type": "string",
      "minLength": 1,
      "maxLength": 150,
      "description": "A statement of what the run shows (never 'should')."
    },
    "description": {
      "type": "string",
      "description": "Longer statement; Markdown."
    },
    "family": {
      "enum": [
        "delegation",
        "transfer",
        "audit",
        "streaming",
        "errors",
        "missing-done",
        "index-reuse",
        "framing"
      ]
    },
    "variantOf": {
      "type": "string",
      "pattern": "^[a-z0-9_]+$",
      "description": "The scenario this one varies."
    },
    "tags": {
      "type": "array",
      "items": {
        "type": "string",
        "pattern": "^[a-z0-9][a-z0-9-]*$"
      },
      "uniqueItems": true
    },
    "specRefs": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "doc",
          "section"
        ],
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
              "whatwg-sse"
            ]
          },
          "section": {
            "type": "string",
            "minLength": 1,
            "description": "A section number or heading that exists in that document (the linter resolves it)."
          }
        }
      }
    },
    "dialect": {
      "$ref": "#/definitions/dialect"
    },
    "pinned": {
      "type": "string",
      "minLength": 1,
      "description": "Why this run is fixed to its `dialect`: it carries bytes captured from that server (ids or timestamps in its format, raw events as it wrote them). Absent: a run renders in every dialect, its own first (docs/scenarios.md \"One scenario, every dialect\"); byte, HTTP and Anthropic scripts are fixed to their own dialect by nature."
    },
    "replays": {
      "type": "string",
      "minLength": 1,
      "description": "Which behaviour is replayed, and where a seed and the real server disagree, which one this follows."
    },
    "session": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "userId",
        "sessionId"
      ],
      "properties": {
        "userId": {
          "type": "string",
          "minLength": 1
        },
        "sessionId": {
          "type": "string",
          "minLength": 1
        },
        "state": {
          "type": "object"
        },
        "create": {
          "type": "boolean",
          "default": true,
          "description": "false: the session does not exist (the session_not_found family)."
        }
      }
    },
    "request": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "message"
      ],
      "properties": {
        "message": {
          "type": "string"
        },
        "streaming": {
          "type": "boolean",
          "default": false
        },
        "stateDelta": {
          "type": "object"
        },
        "endpoint": {
          "enum": [
            "/run_sse",
            "/run_sse_enhanced",
            "/run",
            "/v1/messages"
          ],
          "default": "/run_sse"
        }
      }
    },
    "upstream": {
      "oneOf": [
        {
          "$ref": "#/definitions/runUpstream"
        },
        {
          "$ref": "#/definitions/httpUpstream"
        },
        {
          "$ref": "#/definitions/bytesUpstream"
        },
        {
          "$ref": "#/definitions/messagesUpstream"
        }
      ]
    },
    "faults": {
      "type": "array",
      "items": {
        "$ref": "#/definitions/fault"
      }
    },
    "expect": {
      "$ref": "#/definitions/expect"
    }
  },
  "definitions": {
    "dialect": {
      "enum": [
        "adk-js@2.0",
        "adk-js@1.4-1.6",
        "adk-python@1.x-genC",
        "adk-python@2.x",
        "adk-go@2.0.0",
        "adk-js",
        "adk-python"
      ],
      "description": "A server and its version (docs/mock.md, Dialects). `adk-js` and `adk-python` are aliases of `adk-js@2.0` and `adk-python@1.x-genC`."
    },
    "json": {},
    "usage": {
      "type": "object",
      "properties": {
        "promptTokenCount": {
          "type": "integer"
        },
        "candidatesTokenCount": {
          "type": "integer"
        },
        "totalTokenCount": {
          "type": "integer"
        }
      }
    },
    "timing": {
      "type": "object",
      "properties": {
        "delayMs": {
          "type": "number",
          "minimum": 0,
          "description": "Wait before this step's first frame."
        },
        "chunkDelayMs": {
          "type": "number",
          "minimum": 0,
          "description": "Wait between streaming chunks of this step."
        }
      }
    },
    "auditEvent": {
      "type": "object",
      "required": [
        "event_type"
      ],
      "properties": {
        "event_type": {
          "type": "string"
        }
      },
      "description": "An audit event (schemas/audit-event) recorded in the audit bridge just before the step's frames."
    },
    "step": {
      "type": "object",
      "minProperties": 1,
      "maxProperties": 2,
      "properties": {
        "audit": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/auditEvent"
          }
        },
        "model": {
          "description": "One model turn (one LLM call). Streaming renders partial chunks and the aggregated final the way the dialect does.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "author"
          ],
          "properties": {
            "author": {
              "type": "string"
            },
            "text": {
              "type": "string"
            },
            "thought": {
              "type": "string"
            },
            "calls": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "name",
                  "args"
                ],
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "args": {
                    "type": "object"
                  },
                  "id": {
                    "type": "string"
                  }
                }
              }
            },
            "chunks": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "How streaming splits `text` (must join to it). Default: 3 to 4 words a chunk."
            },
            "finishReason": {
              "type": "string",
              "default": "STOP"
            },
            "usage": {
              "$ref": "#/definitions/usage"
            },
            "stateDelta": {
              "type": "object"
            },
            "artifactDelta": {
              "type": "object",
              "additionalProperties": {
                "type": "integer"
              }
            },
            "longRunning": {
              "type": "boolean"
            },
            "truncate": {
              "type": "boolean",
              "description": "Streaming: the stream of this turn stops after the partial chunks (no aggregated final)."
            },
            "callsWithLastChunk": {
              "type": "boolean",
              "description": "Streaming, a turn with text and calls: the last text chunk arrives in the model chunk that carries the calls (adk-docs PR #2076). adk-js (non-progressive aggregator) streams no delta for it, so that text reaches the wire only in the partial:false text event before the calls; adk-python (progressive SSE) streams one partial event with that text and the call previews."
            },
            "reissuedCallIds": {
              "type": "boolean",
              "description": "Streaming, adk-python 1.22 to 2.4 (issues #4609 and #5064, ag-ui #968; fixed by fe41817): the aggregated partial:false event gets fresh adk- call ids, so the partial function-call previews carry other ids than the calls that run and their responses. adk-js streams no call previews, so it renders nothing different."
            },
            "usageMissing": {
              "type": "boolean",
              "description": "The model reported no token usage for this turn: no event of the turn carries usageMetadata, and adk-js writes no trailing usage report after its tool round (adk-js 1.4 to 1.6 SSE streaming for turns that end in function calls, adk-js #645)."
            },
            "delayMs": {
              "type": "number",
              "minimum": 0
            },
            "chunkDelayMs": {
              "type": "number",
              "minimum": 0
            }
          }
        },
        "tools": {
          "description": "The (merged) function-response event answering the calls of the previous model step, in call order.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "author",
            "responses"
          ],
          "properties": {
            "author": {
              "type": "string"
            },
            "responses": {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "name",
                  "response"
                ],
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "response": {
                    "type": "object"
                  }
                }
              }
            },
            "stateDelta": {
              "type": "object"
            },
            "transferToAgent": {
              "type": "string"
            },
            "skipSummarization": {
              "type": "boolean"
            },
            "delayMs": {
              "type": "number",
              "minimum": 0
            }
          }
        },
        "modelError": {
          "description": "A model-level error as an ordinary event (errorCode/errorMessage), the way ADK reports model exceptions and blocked responses.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "author",
            "errorCode"
          ],
          "properties": {
            "author": {
              "type": "string"
            },
            "errorCode": {
              "type": "string"
            },
            "errorMessage": {
              "type": "string"
            },
            "finishReason": {
              "type": "string"
            },
            "usage": {
              "$ref": "#/definitions/usage"
            },
            "delayMs": {
              "type": "number",
              "minimum": 0
            }
          }
        },
        "errorFrame": {
          "description": "The server's `data: {\"error\": ...}` line for an exception after the headers were sent; the dialect decides the bytes.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "message"
          ],
          "properties": {
            "message": {
              "type": "string"
            },
            "style": {
              "enum": [
                "dialect",
                "python-legacy-unescaped",
                "python-structured"
              ],
              "default": "dialect"
            },
            "errorType": {
              "type": "string"
            },
            "delayMs": {
              "type": "number",
              "minimum": 0
            }
          }
        },
        "raw": {
          "description": "Bytes written verbatim as one chunk (e.g. `data: {}\\n\\n`, `data: [DONE]\\n\\n`).",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "text": {
              "type": "string"
            },
            "base64": {
              "type": "string"
            },
            "delayMs": {
              "type": "number",
              "minimum": 0
            }
          }
        },
        "silence": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "ms"
          ],
          "properties": {
            "ms": {
              "type": "number",
              "minimum": 0
            }
          }
        }
      },
      "oneOf": [
        {
          "required": [
            "model"
          ]
        },
        {
          "required": [
            "tools"
          ]
        },
        {
          "required": [
            "modelError"
          ]
        },
        {
          "required": [
            "errorFrame"
          ]
        },
        {
          "required": [
            "raw"
          ]
        },
        {
          "required": [
            "silence"
          ]
        }
      ],
      "additionalProperties": false
    },
    "runUpstream": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "steps"
      ],
      "properties": {
        "kind": {
          "const": "run"
        },
        "invocationId": {
          "type": "string",
          "description": "Fixed invocation id (default: derived from the seed)."
        },
        "startTime": {
          "type": "number",
          "description": "Epoch milliseconds of the first event (default 1795318500000); timestamps advance with the scripted delays."
        },
        "ids": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "events": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "Fixed event ids, in emission order (seed captures)."
            },
            "calls": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "Fixed function-call ids, in call order."
            },
            "timestamps": {
              "type": "array",
              "items": {
                "type": "number"
              },
              "description": "Fixed timestamps in the dialect's unit, in emission order."
            }
          }
        },
        "steps": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/step"
          }
        },
        "end": {
          "enum": [
            "eof",
            "hold-open",
            "reset"
          ],
          "default": "eof",
          "description": "eof: the server ends the body; hold-open: the connection stays open after the last frame; reset: the socket is destroyed."
        }
      }
    },
    "httpUpstream": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "status"
      ],
      "properties": {
        "kind": {
          "const": "http"
        },
        "status": {
          "type": "integer",
          "minimum": 100,
          "maximum": 599
        },
        "headers": {
          "type": "array",
          "items": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "minItems": 2,
            "maxItems": 2
          },
          "description": "Extra or overriding headers; the dialect supplies its defaults."
        },
        "body": {
          "type": "string"
        },
        "json": {}
      }
    },
    "bytesUpstream": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "chunks"
      ],
      "properties": {
        "kind": {
          "const": "bytes"
        },
        "status": {
          "type": "integer",
          "default": 200
        },
        "headers": {
          "type": "array",
          "items": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "minItems": 2,
            "maxItems": 2
          }
        },
        "chunks": {
          "type": "array",
          "items": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "text": {
                "type": "string"
              },
              "base64": {
                "type": "string"
              },
              "repeat": {
                "type": "integer",
                "minimum": 1,
                "description": "Write the chunk this many times (multi-megabyte bodies stay small on disk)."
              },
              "delayMs": {
                "type": "number",
                "minimum": 0
              }
            }
          }
        },
        "end": {
          "enum": [
            "eof",
            "hold-open",
            "reset"
          ],
          "default": "eof"
        }
      }
    },
    "messagesUpstream": {
      "description": "One agent turn of several LLM calls in the Anthropic Messages streaming format (seed 003); served by the mock's POST /v1/messages, one message per call.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "messages"
      ],
      "properties": {
        "kind": {
          "const": "anthropic-turn"
        },
        "model": {
          "type": "string",
          "default": "claude-sonnet-4-5"
        },
        "messages": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "blocks"
            ],
            "properties": {
              "id": {
                "type": "string"
              },
              "blocks": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "type"
                  ],
                  "properties": {
                    "type": {
                      "enum": [
                        "thinking",
                        "text",
                        "tool_use"
                      ]
                    },
                    "text": {
                      "type": "string"
                    },
                    "thinking": {
                      "type": "string"
                    },
                    "id": {
                      "type": "string"
                    },
                    "name": {
                      "type": "string"
                    },
                    "input": {
                      "type": "object"
                    },
                    "deltas": {
                      "type": "array",
                      "items": {
                        "type": "string"
                      },
                      "description": "How the block's text, thinking or input JSON is split into deltas."
                    }
                  }
                }
              },
              "stopReason": {
                "enum": [
                  "end_turn",
                  "tool_use",
                  "max_tokens",
                  "stop_sequence"
                ]
              },
              "toolResults": {
                "type": "array",
                "description": "Tool executions between this message and the next.",
                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": [
                    "toolUseId"
                  ],
                  "properties": {
                    "toolUseId": {
                      "type": "string"
                    },
                    "content": {},
                    "isError": {
                      "type": "boolean"
                    },
                    "error": {
                      "type": "string"
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "fault": {
      "type": "object",
      "required": [
        "name"
      ],
      "description": "A transformation of the rendered bytes or timing, applied by the replay engine (mock-adk/core/faults.ts lists the names it knows).",
      "properties": {
        "name": {
          "type": "string",
          "pattern": "^[a-z0-9-]+$"
        }
      }
    },
    "briefingOutline": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "type"
      ],
      "properties": {
        "type": {
          "enum": [
            "INSIGHT",
            "ALERT",
            "ACTION",
            "STATUS"
          ]
        },
        "source_agent": {
          "type": "string"
        },
        "state": {
          "enum": [
            "THINKING",
            "DELEGATING",
            "EXECUTING",
            "SYNTHESIZING",
            "COMPLETE",
            "ERROR"
          ],
          "description": "Lifecycle state (seed 002 §4.1) the event stands for."
        },
        "confidence": {
          "type": [
            "number",
            "null"
          ],
          "description": "Expected proof_layer.confidence; null: the event carries no confidence."
        },
        "citations": {
          "type": "integer",
          "minimum": 0,
          "description": "Expected number of citations."
        },
        "citationSources": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "degraded": {
          "type": "boolean",
          "description": "Whether content.degradation_notice is present."
        }
      }
    },
    "expect": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "status",
        "outcome"
      ],
      "properties": {
        "status": {
          "type": "integer",
          "description": "HTTP status of the scenario's request."
        },
        "outcome": {
          "enum": [
            "complete",
            "error",
            "cut",
            "hold-open",
            "http-error"
          ],
          "description": "How the run ends: complete (EOF after a final answer), error (an error frame or error event ends it), cut (the stream stops without a final answer), hold-open (final answer, then the connection stays open), http-error (a non-200 before any stream)."
        },
        "frames": {
          "type": "integer",
          "minimum": 0,
          "description": "Number of SSE frames (dispatched events) in the rendered default stream."
        },
        "completionPoint": {
          "type": [
            "integer",
            "null"
          ],
          "minimum": 0,
          "description": "0-based index of the frame after which the run may be declared complete (null: never complete)."
        },
        "errorFrame": {
          "type": "object",
          "description": "The terminal error frame's JSON (subset match); for invalid JSON frames, `{\"raw\": text}`."
        },
        "finalText": {
          "type": "string",
          "description": "The final answer's text, exactly."
        },
        "briefings": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/briefingOutline"
          },
          "description": "Key AgentBriefingEvents, in order, as a subsequence of the transformer's output."
        },
        "blocks": {
          "type": "array",
          "description": "index-reuse family: the frontend events' expected indices, in order.",
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "type",
              "index"
            ],
            "properties": {
              "type": {
                "type": "string"
              },
              "index": {
                "type": "integer",
                "minimum": 0
              },
              "tool_use_id": {
                "type": "string"
              }
            }
          }
        }
      }
    }
  }
} as const;

export type Scenario = FromSchema<typeof scenarioSchema>;
