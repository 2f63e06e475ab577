// Generated from schemas/config.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const configSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/config.schema.json",
  "title": "Config",
  "description": "adk-conformance.config.json: the settings of `adk-conformance run`, kept in a file. Every key is optional; a command-line flag overrides the key it names. Relative paths are read from the folder of the config file. docs/configuration.md explains each key.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "$schema": {
      "type": "string"
    },
    "target": {
      "description": "What is certified (the run command's target flags); none: the reference implementation. A target flag on the command line replaces this whole object, except mockPort and jwtSecret, which a flag overrides one by one.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "gateway": {
          "type": "string",
          "pattern": "^https?://",
          "description": "A running gateway's base URL (--gateway)."
        },
        "gatewayCmd": {
          "type": "string",
          "minLength": 1,
          "description": "A command that starts the gateway with PORT and ADK_UPSTREAM_URL set (--gateway-cmd)."
        },
        "transformerCmd": {
          "type": "string",
          "minLength": 1,
          "description": "A transformer speaking the NDJSON stdio contract (--transformer-cmd)."
        },
        "transformerModule": {
          "type": "string",
          "minLength": 1,
          "description": "A transformer module (--transformer-module)."
        },
        "normalizerCmd": {
          "type": "string",
          "minLength": 1,
          "description": "A block-index normaliser command (--normalizer-cmd)."
        },
        "normalizerModule": {
          "type": "string",
          "minLength": 1,
          "description": "A block-index normaliser module (--normalizer-module)."
        },
        "clientCmd": {
          "type": "string",
          "minLength": 1,
          "description": "A POST SSE client reading a /run_sse body on stdin and writing NDJSON records (--client-cmd; docs/client-contract.md)."
        },
        "clientModule": {
          "type": "string",
          "minLength": 1,
          "description": "A POST SSE client module exporting createClient (--client-module; docs/client-contract.md)."
        },
        "auditBridgeCmd": {
          "type": "string",
          "minLength": 1,
          "description": "An audit bridge speaking the NDJSON operation contract of docs/audit-bridge-contract.md (--audit-bridge-cmd)."
        },
        "auditBridgeModule": {
          "type": "string",
          "minLength": 1,
          "description": "An audit bridge module exporting createAuditBridge (--audit-bridge-module)."
        },
        "proxy": {
          "type": "string",
          "minLength": 1,
          "description": "A running cookie-to-bearer proxy's base URL, its BACKEND_URL at backendPort (--proxy; docs/proxy-contract.md)."
        },
        "proxyCmd": {
          "type": "string",
          "minLength": 1,
          "description": "The command that starts a cookie-to-bearer proxy on $PORT in front of $BACKEND_URL (--proxy-cmd; docs/proxy-contract.md)."
        },
        "backendPort": {
          "type": "integer",
          "minimum": 1,
          "maximum": 65535,
          "description": "With proxy: where the harness serves the proxy's backend (--backend-port, default 8000)."
        },
        "proofStreamModule": {
          "type": "string",
          "minLength": 1,
          "description": "A proof-layer stream module exporting createProofLayerStream (--proof-stream-module; docs/proof-stream-contract.md)."
        },
        "adkServerModule": {
          "type": "string",
          "minLength": 1,
          "description": "A server helper exporting createAdkServer({runner}), handed a real adk-js Runner (--adk-server-module; docs/adk-server-contract.md)."
        },
        "mockPort": {
          "type": "integer",
          "minimum": 0,
          "maximum": 65535,
          "description": "Port of the mock ADK server the harness starts (--mock-port)."
        },
        "jwtSecret": {
          "type": "string",
          "minLength": 1,
          "description": "The HS256 secret the gateway under test verifies (--jwt-secret)."
        }
      }
    },
    "baseline": {
      "type": "string",
      "minLength": 1,
      "description": "An expected-failure baseline file (--baseline; docs/baseline.md): the exit code follows its ratchet gate, the verdict is unchanged."
    },
    "level": {
      "enum": [
        "must",
        "should",
        "may"
      ],
      "description": "Gate level (--level)."
    },
    "reporters": {
      "type": "array",
      "minItems": 1,
      "uniqueItems": true,
      "items": {
        "enum": [
          "json",
          "junit",
          "md",
          "html"
        ]
      },
      "description": "Report formats (--reporter)."
    },
    "out": {
      "type": "string",
      "minLength": 1,
      "description": "Report folder (--out)."
    },
    "seed": {
      "oneOf": [
        {
          "type": "integer",
          "minimum": 0
        },
        {
          "const": "random"
        }
      ],
      "description": "Seed for generated cases and ids (--seed); absent: the kit version's default, so the same code and kit give the same verdict; \"random\": explore with a fresh seed, printed."
    },
    "timeoutMs": {
      "type": "integer",
      "minimum": 100,
      "description": "Time bound for one scenario in milliseconds (--timeout-ms)."
    },
    "startupTimeoutMs": {
      "type": "integer",
      "minimum": 100,
      "maximum": 3600000,
      "description": "How long a started implementation may take to get ready, in milliseconds (--startup-timeout, in seconds): a gateway or proxy must listen on $PORT within it (default 20000, a proxy 15000); a transformer or client command is measured once with an empty input (its first line or exit; default 30000 for a transformer, 10000 for a client) and that start-up is excluded from every run's clock. Start-up is never judged as behaviour; the report's startup list says how long it took."
    },
    "protocol": {
      "enum": [
        "auto",
        "session",
        "one-shot"
      ],
      "description": "How a transformer or client command is run (--protocol): auto (the default) asks it for the session form in its start-up probe and runs it in the form it answers in; session runs every run in long-lived processes speaking docs/session-protocol.md; one-shot starts a fresh process per run."
    },
    "spec": {
      "enum": [
        "1.0",
        "1.1"
      ],
      "description": "The AgentBriefingEvent spec version a transformer is judged against (--spec): 1.0 is seed 002's schema, 1.1 the revision deployed transformers emit (schema_version \"1.1.0\", lowercase types, severity, ui_binding, content.suggested_actions). Absent: the schema_version its first events declare, else 1.0 (docs/versioning.md \"Spec versions\")."
    },
    "gateway": {
      "type": "object",
      "additionalProperties": false,
      "description": "What the gateway under test is, where the seeds leave it open (docs/configuration.md). What it does not declare is not applicable to it, with the reason.",
      "properties": {
        "appName": {
          "type": "string",
          "minLength": 1,
          "pattern": "^[^/]+$",
          "description": "The one app a fixed-app gateway serves (seed 004: appName \"e.g., vana\"); every run, legacy route and mock session names it (--app-name). Default: none, each run names its scenario's id."
        },
        "cookieProxy": {
          "type": "boolean",
          "description": "The gateway serves the cookie-to-bearer proxy route POST /api/sse/run_sse (GW-PROXY-002; --gateway-serves cookie-proxy). Default false: seed 004 puts the proxy in the frontend."
        },
        "enhancedEndpoint": {
          "type": "boolean",
          "description": "The gateway serves POST /run_sse_enhanced (GW-ENH-001; --gateway-serves run-sse-enhanced). Default false: seed 000 puts that endpoint in the ADK service's main.py."
        },
        "legacyRoutes": {
          "type": "boolean",
          "description": "The gateway serves the legacy routes POST/GET /apps/{app}/users/{user}/sessions/{session}/run (GW-LEGACY-001/002). Default true (seed 004: \"Legacy endpoints remain available\"); false (--gateway-serves legacy-elsewhere) when they stay in another app."
        }
      }
    },
    "generated": {
      "type": "integer",
      "minimum": 0,
      "maximum": 10000,
      "description": "How many fast-check generated runs to certify besides the scenarios (--generated); 0: none."
    },
    "upstream": {
      "enum": [
        "mock",
        "real-adk-js"
      ],
      "description": "What serves the scenarios (--upstream): the scripted mock (default), or the bytes the real adk-js 2.0.0 runtime writes for each scenario it can play (docs/fidelity.md)."
    },
    "scenarios": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "dir": {
          "type": "string",
          "minLength": 1,
          "description": "Scenario folder (--scenarios)."
        },
        "grep": {
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Requirement ids or tags, scenario ids, families or tags (--grep)."
        },
        "skip": {
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Scenarios (ids, families or tags) and probes (probe:<id>) left out of the run (--skip)."
        }
      }
    },
    "profile": {
      "$ref": "#/definitions/profile"
    },
    "proxyNames": {
      "type": "object",
      "additionalProperties": false,
      "description": "The cookie and header names the proxy under test reads, where a team's frontend uses its own (docs/proxy-contract.md). Default: seed 004's access_token and csrf_token cookies and the X-CSRF-Token header.",
      "properties": {
        "authCookie": {
          "type": "string",
          "minLength": 1,
          "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
          "description": "The cookie holding the access token (--auth-cookie). Default access_token."
        },
        "csrfCookie": {
          "type": "string",
          "minLength": 1,
          "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
          "description": "The double-submit CSRF cookie (--csrf-cookie). Default csrf_token."
        },
        "csrfHeader": {
          "type": "string",
          "minLength": 1,
          "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
          "description": "The header echoing the CSRF cookie (--csrf-header), e.g. X-XSRF-TOKEN. Default X-CSRF-Token."
        }
      }
    }
  },
  "definitions": {
    "part": {
      "enum": [
        "gateway",
        "transformer",
        "normalizer",
        "client",
        "audit-bridge",
        "proof-stream",
        "proxy",
        "adk-stream",
        "adk-server"
      ]
    },
    "profile": {
      "description": "Applicability: the parts and capabilities the implementation declares. Requirements outside it are reported not-applicable with the declared reason; a declared capability's failing requirement is a failure.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "parts"
      ],
      "properties": {
        "parts": {
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "$ref": "#/definitions/part"
          }
        },
        "capabilities": {
          "type": "object",
          "additionalProperties": false,
          "description": "Absent capabilities count as implemented (true).",
          "properties": {
            "audit-metadata": {
              "type": "boolean",
              "description": "Seed 000's audit metadata: /run_sse_enhanced, _audit_metadata, proof layer from audit events, the audit bridge."
            },
            "legacy-endpoints": {
              "type": "boolean",
              "description": "Seed 004's legacy two-step POST/GET .../run endpoints."
            },
            "feature-flag": {
              "type": "boolean",
              "description": "Seed 004's ENABLE_ADK_CANONICAL_STREAM flag (501 when off)."
            },
            "jwt-auth": {
              "type": "boolean",
              "description": "Seed 004's JWT bearer authentication on the gateway."
            },
            "csrf": {
              "type": "boolean",
              "description": "Seed 004's CSRF token check on POST."
            },
            "cookie-proxy": {
              "type": "boolean",
              "description": "Seed 004's cookie-to-bearer SSE proxy."
            },
            "text-proof-layer": {
              "type": "boolean",
              "description": "Confidence and citations parsed from the answer text when no audit metadata is present (seed 001)."
            },
            "robustness": {
              "type": "boolean",
              "description": "Framing no real ADK server, gateway or proxy is known to write (a CR alone, mixed line ends, multi-line data, `data:` without a space, `id:`, `retry:`): the SHOULD requirements tagged robustness. false leaves them out."
            },
            "token-usage": {
              "type": "boolean",
              "description": "Briefings report the model event's token usage as `usage` (optional: mapping rule MAP-FIELD-004). False: ABE-USAGE-001 is not applicable (a transformer that reports none leaves it unobserved)."
            },
            "session-correlation": {
              "type": "boolean",
              "description": "One correlation_id for every turn of a session (seed 002 §4.2). False: the transformer correlates per invocation on purpose (the transform filter's --correlation invocation), and ABE-CORR-002 is not applicable."
            },
            "dialects": {
              "type": "array",
              "minItems": 1,
              "uniqueItems": true,
              "items": {
                "enum": [
                  "adk-js@2.0",
                  "adk-js@1.4-1.6",
                  "adk-python@1.x-genC",
                  "adk-python@2.x",
                  "adk-go@2.0.0",
                  "adk-js",
                  "adk-python"
                ]
              },
              "description": "The ADK servers the implementation talks to; scenarios replaying another server are left out."
            }
          }
        },
        "reasons": {
          "type": "object",
          "description": "Why a part or capability is left out, by its name; shown in every report next to each requirement it makes not applicable.",
          "additionalProperties": {
            "type": "string",
            "minLength": 1
          }
        }
      }
    }
  }
} as const;

export type Config = FromSchema<typeof configSchema>;
