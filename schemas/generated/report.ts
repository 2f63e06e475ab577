// Generated from schemas/report.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const reportSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/report.schema.json",
  "title": "Report",
  "description": "report.json, the conformance harness's result of one run (the RunResult of harness/model.ts): who ran what against which target under which gate, the verdict, counts, every requirement's status with its proof by mutants, every scenario's timeline, and the findings. Findings are values {requirement, code, path, message, expected, actual}, plus the scenario and a replay line. Additional properties are allowed so reporters can add detail without breaking older readers.",
  "type": "object",
  "required": [
    "tool",
    "startedAt",
    "finishedAt",
    "durationMs",
    "target",
    "gate",
    "seed",
    "seedSource",
    "verdict",
    "passed",
    "counts",
    "requirements",
    "scenarios"
  ],
  "properties": {
    "tool": {
      "type": "object",
      "required": [
        "name",
        "version"
      ],
      "properties": {
        "name": {
          "const": "adk-conformance"
        },
        "version": {
          "type": "string",
          "minLength": 1
        }
      }
    },
    "startedAt": {
      "type": "string",
      "format": "date-time"
    },
    "finishedAt": {
      "type": "string",
      "format": "date-time"
    },
    "durationMs": {
      "type": "number",
      "minimum": 0
    },
    "target": {
      "type": "object",
      "required": [
        "description",
        "parts"
      ],
      "properties": {
        "description": {
          "type": "string",
          "description": "What was tested, e.g. \"gateway at http://127.0.0.1:8000\"."
        },
        "parts": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/part"
          },
          "uniqueItems": true,
          "description": "The parts of the pipeline under test; requirements of other parts are not applicable."
        }
      }
    },
    "gate": {
      "type": "object",
      "description": "The gate policy: the run passes (exit 0) when the verdict reaches the level (level 'must': MUST-compliant or better; 'should': SHOULD-compliant or better; 'may': fully compliant). Untested requirements count as failures.",
      "required": [
        "level",
        "untestedFails"
      ],
      "properties": {
        "level": {
          "enum": [
            "must",
            "should",
            "may"
          ]
        },
        "untestedFails": {
          "const": true,
          "description": "Always true: an untested requirement fails the gate like a failed one (no vacuous 100%)."
        }
      }
    },
    "seed": {
      "type": "integer",
      "description": "The seed of generated cases and rendered ids; the same seed replays the run."
    },
    "seedSource": {
      "enum": [
        "default",
        "given",
        "random"
      ],
      "description": "default: derived from the kit version (the same code and kit give the same verdict); given: --seed N; random: --seed random (exploring)."
    },
    "upstream": {
      "type": "object",
      "required": [
        "name",
        "runtime",
        "captured",
        "leftOut"
      ],
      "additionalProperties": false,
      "description": "Present when --upstream real-adk-js served the scenarios: the bytes the real adk-js runtime wrote for each scenario it can play (captured), and every other selected scenario with the reason it was left out.",
      "properties": {
        "name": {
          "const": "real-adk-js"
        },
        "runtime": {
          "type": "string"
        },
        "captured": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "leftOut": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "id",
              "reason"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "type": "string"
              },
              "reason": {
                "type": "string"
              }
            }
          }
        }
      }
    },
    "selection": {
      "type": "object",
      "required": [
        "grep",
        "gated",
        "outside",
        "description"
      ],
      "additionalProperties": false,
      "description": "Present when --grep or --skip (or --upstream real-adk-js) narrowed the scenarios: the run gates only the requirements they exercise; the others are not applicable in this run.",
      "properties": {
        "grep": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "skip": {
          "type": "array",
          "description": "The --skip words as given; grep is then the exact scenarios and probes left to run.",
          "items": {
            "type": "string"
          }
        },
        "gated": {
          "type": "integer",
          "minimum": 0
        },
        "outside": {
          "type": "integer",
          "minimum": 0
        },
        "description": {
          "type": "string"
        }
      }
    },
    "shard": {
      "type": "object",
      "required": [
        "index",
        "total"
      ],
      "properties": {
        "index": {
          "type": "integer",
          "minimum": 1
        },
        "total": {
          "type": "integer",
          "minimum": 1
        }
      }
    },
    "live": {
      "type": "object",
      "required": [
        "taps",
        "runs",
        "failedRuns"
      ],
      "additionalProperties": false,
      "description": "A tap's report (adk-conformance tap): every run it judged is counted here, while scenarios keeps the failing ones only (bounded); report merge sums it over several taps.",
      "properties": {
        "taps": {
          "type": "integer",
          "minimum": 1
        },
        "runs": {
          "type": "integer",
          "minimum": 0
        },
        "failedRuns": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "startup": {
      "type": "array",
      "description": "How long each process of the implementation took to get ready (a gateway: to listen), against the readiness bound it had (--startup-timeout). Start-up is never judged as behaviour.",
      "items": {
        "type": "object",
        "required": [
          "part",
          "instance",
          "boundMs",
          "outcome"
        ],
        "additionalProperties": false,
        "properties": {
          "part": {
            "type": "string"
          },
          "instance": {
            "type": "string"
          },
          "boundMs": {
            "type": "integer",
            "minimum": 0
          },
          "readyMs": {
            "type": "integer",
            "minimum": 0
          },
          "outcome": {
            "enum": [
              "ready",
              "timed-out",
              "failed"
            ]
          }
        }
      }
    },
    "spec": {
      "type": "object",
      "description": "The AgentBriefingEvent spec version a transformer was judged against (docs/versioning.md \"Spec versions\"): given (--spec, config `spec`), detected from the schema_version its first events declare, or the default 1.0. Absent when no transformer is under test.",
      "required": [
        "version",
        "how",
        "detail"
      ],
      "additionalProperties": false,
      "properties": {
        "version": {
          "enum": [
            "1.0",
            "1.1"
          ]
        },
        "how": {
          "enum": [
            "given",
            "detected",
            "default"
          ]
        },
        "detail": {
          "type": "string"
        }
      }
    },
    "baseline": {
      "type": "object",
      "required": [
        "file",
        "passed",
        "summary",
        "entries",
        "newFailures"
      ],
      "additionalProperties": false,
      "description": "Present when the run was gated by an expected-failure baseline (--baseline FILE, docs/baseline.md). The verdict and `passed` are unchanged by it; `baseline.passed` is the ratchet gate the exit code follows: every failure at the gate's levels is listed and no listed entry now passes.",
      "properties": {
        "file": {
          "type": "string",
          "minLength": 1
        },
        "passed": {
          "type": "boolean",
          "description": "The ratchet gate: no new failure and no stale entry (and something was observed)."
        },
        "summary": {
          "type": "string",
          "description": "One line: known failures baselined, new failures, stale entries, entries not exercised."
        },
        "entries": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/baselineEntry"
          }
        },
        "newFailures": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/baselineNewFailure"
          }
        }
      }
    },
    "verdict": {
      "$ref": "#/definitions/verdict"
    },
    "passed": {
      "type": "boolean",
      "description": "Whether the verdict meets the gate."
    },
    "counts": {
      "type": "object",
      "required": [
        "requirements",
        "scenarios",
        "mutants",
        "unproven"
      ],
      "properties": {
        "requirements": {
          "type": "object",
          "description": "Requirements by level, then by status.",
          "required": [
            "MUST",
            "SHOULD",
            "MAY"
          ],
          "properties": {
            "MUST": {
              "$ref": "#/definitions/statusCounts"
            },
            "SHOULD": {
              "$ref": "#/definitions/statusCounts"
            },
            "MAY": {
              "$ref": "#/definitions/statusCounts"
            }
          }
        },
        "scenarios": {
          "type": "object",
          "required": [
            "total",
            "passed",
            "failed",
            "errored"
          ],
          "properties": {
            "total": {
              "$ref": "#/definitions/count"
            },
            "passed": {
              "$ref": "#/definitions/count"
            },
            "failed": {
              "$ref": "#/definitions/count"
            },
            "errored": {
              "$ref": "#/definitions/count"
            }
          }
        },
        "mutants": {
          "type": "object",
          "description": "Deliberately broken implementations run to prove the checks can fail: killed ones were caught by at least one requirement.",
          "required": [
            "total",
            "killed"
          ],
          "properties": {
            "total": {
              "$ref": "#/definitions/count"
            },
            "killed": {
              "$ref": "#/definitions/count"
            }
          }
        },
        "unproven": {
          "$ref": "#/definitions/count",
          "description": "Applicable requirements no mutant has shown able to fail."
        }
      }
    },
    "requirements": {
      "type": "array",
      "items": {
        "$ref": "#/definitions/requirementResult"
      }
    },
    "scenarios": {
      "type": "array",
      "items": {
        "$ref": "#/definitions/scenarioResult"
      }
    }
  },
  "definitions": {
    "baselineEntry": {
      "type": "object",
      "required": [
        "requirement",
        "reason",
        "status",
        "detail"
      ],
      "additionalProperties": false,
      "description": "One entry of the baseline and what this run made of it: confirmed (it still fails as listed), stale (it now passes: remove it), unexercised (the run did not observe it: neither confirmed nor stale).",
      "properties": {
        "requirement": {
          "type": "string"
        },
        "scenarios": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "reason": {
          "type": "string"
        },
        "issue": {
          "type": "string"
        },
        "status": {
          "enum": [
            "confirmed",
            "stale",
            "unexercised"
          ]
        },
        "detail": {
          "type": "string"
        },
        "staleScenarios": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      }
    },
    "baselineNewFailure": {
      "type": "object",
      "required": [
        "requirement",
        "level",
        "status",
        "scenarios",
        "detail"
      ],
      "additionalProperties": false,
      "description": "A requirement at the gate's levels that failed, was flaky or untested, and that no entry covers; scenarios: where it failed outside the scenarios its entry lists (empty: the whole requirement is new).",
      "properties": {
        "requirement": {
          "type": "string"
        },
        "level": {
          "$ref": "#/definitions/level"
        },
        "status": {
          "enum": [
            "failed",
            "flaky",
            "untested"
          ]
        },
        "scenarios": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "detail": {
          "type": "string"
        }
      }
    },
    "count": {
      "type": "integer",
      "minimum": 0
    },
    "level": {
      "enum": [
        "MUST",
        "SHOULD",
        "MAY"
      ]
    },
    "part": {
      "type": "string",
      "minLength": 1,
      "description": "gateway, transformer, normalizer, client, audit-bridge, ..."
    },
    "verdict": {
      "enum": [
        "could not evaluate",
        "non-compliant",
        "MUST-compliant",
        "SHOULD-compliant",
        "fully compliant"
      ],
      "description": "could not evaluate: no applicable MUST (or, where none applies, no requirement) was observed, exit 3; non-compliant: an applicable MUST failed, is flaky or is untested; MUST-compliant: every MUST passed but a SHOULD did not; SHOULD-compliant: every MUST and SHOULD passed but a MAY did not; fully compliant: every applicable requirement passed."
    },
    "requirementStatus": {
      "enum": [
        "passed",
        "failed",
        "flaky",
        "untested",
        "not-applicable"
      ]
    },
    "statusCounts": {
      "type": "object",
      "required": [
        "passed",
        "failed",
        "untested",
        "not-applicable"
      ],
      "properties": {
        "passed": {
          "$ref": "#/definitions/count"
        },
        "failed": {
          "$ref": "#/definitions/count"
        },
        "flaky": {
          "$ref": "#/definitions/count",
          "description": "Timing failures that did not reproduce when repeated alone (absent in reports written before 0.2)."
        },
        "untested": {
          "$ref": "#/definitions/count"
        },
        "not-applicable": {
          "$ref": "#/definitions/count"
        }
      }
    },
    "specSource": {
      "type": "object",
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
          "minLength": 1
        }
      }
    },
    "finding": {
      "type": "object",
      "description": "One thing the implementation under test did wrong.",
      "required": [
        "requirement",
        "code",
        "path",
        "message"
      ],
      "properties": {
        "requirement": {
          "type": "string",
          "minLength": 1,
          "description": "The requirement id, e.g. GW-PASS-001."
        },
        "code": {
          "type": "string",
          "minLength": 1,
          "description": "A stable code for the kind of failure, e.g. frame-mutated."
        },
        "path": {
          "type": "string",
          "description": "Where: a JSON pointer into an event, or frame[3], header:cache-control, byte 1024."
        },
        "message": {
          "type": "string",
          "minLength": 1
        },
        "expected": {
          "description": "Any JSON."
        },
        "actual": {
          "description": "Any JSON."
        },
        "scenario": {
          "type": "string",
          "description": "The scenario it was observed in."
        },
        "replay": {
          "type": "string",
          "description": "One command line that replays just this case."
        },
        "timing": {
          "const": true,
          "description": "The finding depends on the wall clock (a window of the implementation's own ran out first): its run was repeated alone before it was reported."
        }
      }
    },
    "requirementResult": {
      "type": "object",
      "required": [
        "id",
        "title",
        "level",
        "source",
        "status",
        "findings",
        "provenBy",
        "quote",
        "part",
        "tags",
        "scenarios"
      ],
      "properties": {
        "id": {
          "type": "string",
          "minLength": 1
        },
        "title": {
          "type": "string",
          "minLength": 1
        },
        "level": {
          "$ref": "#/definitions/level"
        },
        "source": {
          "$ref": "#/definitions/specSource"
        },
        "quote": {
          "type": "string",
          "description": "The sentence of the source the requirement comes from."
        },
        "part": {
          "$ref": "#/definitions/part"
        },
        "tags": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "introducedIn": {
          "enum": [
            "1.0",
            "1.1"
          ],
          "description": "The AgentBriefingEvent spec version that brought the requirement in (absent: every version)."
        },
        "removedIn": {
          "enum": [
            "1.0",
            "1.1"
          ],
          "description": "The spec version that dropped it: not applicable under it and later."
        },
        "status": {
          "$ref": "#/definitions/requirementStatus"
        },
        "scenarios": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Scenarios that exercised it."
        },
        "findings": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/finding"
          }
        },
        "provenBy": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Mutant ids whose fault this requirement's checks caught; empty: unproven."
        },
        "reason": {
          "type": "string",
          "description": "Why untested or not applicable."
        }
      }
    },
    "timelineEntry": {
      "type": "object",
      "required": [
        "t",
        "kind",
        "summary"
      ],
      "properties": {
        "t": {
          "type": "number",
          "minimum": 0,
          "description": "Milliseconds since the scenario started."
        },
        "kind": {
          "type": "string",
          "minLength": 1,
          "description": "request, status, frame, event, stderr, exit, end, note."
        },
        "summary": {
          "type": "string"
        }
      }
    },
    "checkOutcome": {
      "type": "object",
      "required": [
        "requirement",
        "scenario",
        "status",
        "findings"
      ],
      "properties": {
        "requirement": {
          "type": "string",
          "minLength": 1
        },
        "scenario": {
          "type": "string"
        },
        "status": {
          "enum": [
            "passed",
            "failed",
            "untested",
            "flaky"
          ]
        },
        "findings": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/finding"
          }
        },
        "reason": {
          "type": "string"
        }
      }
    },
    "scenarioResult": {
      "type": "object",
      "required": [
        "scenario",
        "status",
        "durationMs",
        "timeline",
        "outcomes",
        "part",
        "replay"
      ],
      "properties": {
        "scenario": {
          "type": "string",
          "minLength": 1,
          "description": "The scenario id (or probe:<id>)."
        },
        "part": {
          "$ref": "#/definitions/part"
        },
        "status": {
          "enum": [
            "passed",
            "failed",
            "errored"
          ],
          "description": "errored: the harness could not finish it (timeout, harness error); never the implementation's fault alone."
        },
        "durationMs": {
          "type": "number",
          "minimum": 0
        },
        "timeline": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/timelineEntry"
          }
        },
        "outcomes": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/checkOutcome"
          }
        },
        "error": {
          "type": "string"
        },
        "replay": {
          "type": "string"
        },
        "input": {
          "type": "object",
          "description": "What the implementation was fed, kept in full for a scenario that did not pass (the transformer's data lines), up to a size cap; `truncated` says what was cut.",
          "required": [
            "kind",
            "lines"
          ],
          "additionalProperties": false,
          "properties": {
            "kind": {
              "type": "string",
              "enum": [
                "data-lines"
              ],
              "description": "data-lines: one SSE data field per line, as docs/transform-contract.md feeds them."
            },
            "lines": {
              "type": "array",
              "items": {
                "type": "string"
              }
            },
            "truncated": {
              "type": "string",
              "description": "Why and where the kept lines stop, when they do."
            }
          }
        }
      }
    }
  }
} as const;

export type Report = FromSchema<typeof reportSchema>;
