// Generated from schemas/baseline.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const baselineSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/baseline.schema.json",
  "title": "Baseline",
  "description": "An expected-failure baseline (`adk-conformance run --baseline FILE`, docs/baseline.md): the requirements an implementation is known to fail, each with why. The run's gate (its exit code) passes when every failure is listed here and no listed entry now passes; the verdict itself is unchanged. `adk-conformance report baseline REPORT_DIR` writes one from a report.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "knownFailures"
  ],
  "properties": {
    "$schema": {
      "type": "string"
    },
    "description": {
      "type": "string",
      "description": "Free text for the people who keep the file (which implementation, which branch)."
    },
    "knownFailures": {
      "type": "array",
      "description": "One entry per requirement known to fail; an empty list is a baseline with nothing known to fail (every failure is new).",
      "items": {
        "$ref": "#/definitions/knownFailure"
      }
    }
  },
  "definitions": {
    "knownFailure": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "requirement",
        "reason"
      ],
      "properties": {
        "requirement": {
          "type": "string",
          "pattern": "^[A-Z]+(-[A-Z0-9]+)*-[0-9]{3}$",
          "description": "A live requirement id (docs/requirements.md). An unknown or retired id is a configuration error."
        },
        "scenarios": {
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Narrow the entry to these scenario ids (or `probe:<id>`): a failure of the requirement in any other scenario is new. Absent: every failure of the requirement is known."
        },
        "reason": {
          "type": "string",
          "minLength": 1,
          "description": "Why it is known to fail, shown beside the failure in every report."
        },
        "issue": {
          "type": "string",
          "format": "uri",
          "pattern": "^https?://",
          "description": "A link to the issue that tracks the fix."
        }
      }
    }
  }
} as const;

export type Baseline = FromSchema<typeof baselineSchema>;
