// Generated from schemas/block-stream-event.schema.json by schemas/generate-types.ts. Do not edit: run npm run gen:types.
import type { FromSchema } from 'json-schema-to-ts';

export const blockStreamEventSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://adk-conformance.dev/schemas/block-stream-event.schema.json",
  "title": "BlockStreamEvent",
  "description": "One event of the frontend block stream of seed 003: `{event_type, data}` as seed 003 §3.1 yields it (`yield {\"event_type\": event_type, \"data\": sse_event_data}`). Block events carry a non-negative integer data.index, unique and sequential per conceptual block (seed 003 §1, §5); index-free events carry none (seed 003 §3.1 last bullet); `error` reports input the normaliser refuses, with a reason (seed 003 §3.1: \"handle as an error\"). The Anthropic Messages streaming events the block stream is built from are validated with `block-stream-event#/definitions/anthropicEvent`.",
  "type": "object",
  "required": [
    "event_type",
    "data"
  ],
  "properties": {
    "event_type": {
      "enum": [
        "text_block_start",
        "text_delta",
        "content_block_stop",
        "tool_use_start",
        "tool_use_input_delta",
        "tool_use_input_complete",
        "tool_result",
        "tool_execution_error",
        "message_start",
        "message_delta",
        "llm_call_completed",
        "stream_end",
        "ping",
        "error"
      ]
    },
    "data": {
      "type": "object"
    }
  },
  "allOf": [
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "text_block_start"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/textBlockStartData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "text_delta"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/textDeltaData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "content_block_stop"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/indexedData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_use_start"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/toolUseStartData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_use_input_delta"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/toolUseInputDeltaData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_use_input_complete"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/toolUseInputCompleteData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_result"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/toolResultData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "tool_execution_error"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/toolExecutionErrorData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "enum": [
              "message_start",
              "message_delta",
              "llm_call_completed",
              "stream_end",
              "ping"
            ]
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/indexFreeData"
          }
        }
      }
    },
    {
      "if": {
        "properties": {
          "event_type": {
            "const": "error"
          }
        }
      },
      "then": {
        "properties": {
          "data": {
            "$ref": "#/definitions/errorData"
          }
        }
      }
    }
  ],
  "definitions": {
    "index": {
      "type": "integer",
      "minimum": 0,
      "description": "The frontend block index: unique and sequential per conceptual block of the turn (seed 003 §3.1 frontend_sse_index_allocator)."
    },
    "indexedData": {
      "type": "object",
      "description": "content_block_stop: the stopped block's frontend index (seed 003 §3.1, §3.2 steps 3, 5, 8).",
      "required": [
        "index"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        }
      }
    },
    "textBlockStartData": {
      "type": "object",
      "description": "A new text or thinking block (seed 003 §3.1 \"On text_block_start ...\", §3.2 steps 1 and 6).",
      "required": [
        "index"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "block_type": {
          "enum": [
            "text",
            "thinking"
          ]
        },
        "text": {
          "type": "string",
          "description": "Initial text, when the LLM's block start carried some."
        }
      }
    },
    "textDeltaData": {
      "type": "object",
      "description": "Text appended to the block at index (seed 003 §3.2 steps 2, 7).",
      "required": [
        "index",
        "text"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "text": {
          "type": "string"
        }
      }
    },
    "toolUseStartData": {
      "type": "object",
      "description": "A new tool-use block; tool_id maps later tool results to it (seed 003 §3.1, §3.2 step 4: `tool_use_start (data.index = 1, tool_id=\"T1\")`).",
      "required": [
        "index",
        "tool_id"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "tool_id": {
          "type": "string",
          "minLength": 1
        },
        "name": {
          "type": "string"
        }
      }
    },
    "toolUseInputDeltaData": {
      "type": "object",
      "description": "A fragment of the tool input JSON (seed 003 §3.1 tool_use_input_delta; the Anthropic input_json_delta's partial_json).",
      "required": [
        "index",
        "partial_json"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "partial_json": {
          "type": "string"
        }
      }
    },
    "toolUseInputCompleteData": {
      "type": "object",
      "description": "The tool input is complete (seed 003 §3.1: carries the index found through tool_id_to_frontend_idx using the tool_use_id).",
      "required": [
        "index",
        "tool_use_id"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "tool_use_id": {
          "type": "string",
          "minLength": 1
        },
        "name": {
          "type": "string"
        },
        "input": {}
      }
    },
    "toolResultData": {
      "type": "object",
      "description": "The tool's result, on its tool_use's index (seed 003 §3.2 step 5: `tool_result (data.index = 1, tool_use_id=\"T1\")`).",
      "required": [
        "index",
        "tool_use_id"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "tool_use_id": {
          "type": "string",
          "minLength": 1
        },
        "content": {}
      }
    },
    "toolExecutionErrorData": {
      "type": "object",
      "description": "The tool failed, on its tool_use's index (seed 003 §3.1).",
      "required": [
        "index",
        "tool_use_id",
        "error"
      ],
      "properties": {
        "index": {
          "$ref": "#/definitions/index"
        },
        "tool_use_id": {
          "type": "string",
          "minLength": 1
        },
        "error": {
          "type": "string"
        }
      }
    },
    "indexFreeData": {
      "type": "object",
      "description": "message_start, message_delta, llm_call_completed, stream_end, ping: not tied to a block, so no index (seed 003 §3.1: \"These can be yielded without modifying their index (as they usually don't have one or it's not block-specific)\"; requirement BLK-FLOW-004).",
      "not": {
        "required": [
          "index"
        ]
      }
    },
    "errorData": {
      "type": "object",
      "description": "Input the normaliser refuses, e.g. a delta for an unknown LLM index (seed 003 §3.1: \"Fallback to frontend_sse_index_allocator - 1 or handle as an error\"; requirement BLK-IDX-004: never guessed).",
      "required": [
        "reason"
      ],
      "properties": {
        "reason": {
          "type": "string",
          "minLength": 1,
          "description": "A stable reason code, e.g. unknown_block_index."
        },
        "message": {
          "type": "string"
        },
        "index": {
          "$ref": "#/definitions/index"
        },
        "llm_index": {
          "type": "integer",
          "minimum": 0,
          "description": "The LLM's own index the refused event carried."
        },
        "input": {
          "description": "The refused input event."
        }
      }
    },
    "anthropicEvent": {
      "title": "Anthropic Messages streaming event",
      "description": "The JSON `data:` of one Anthropic Messages API stream event, the input of the block-index normaliser (seed 003 §2: \"The underlying LLM client (e.g., Anthropic SDK) may reuse its internal index\"). Validate with `block-stream-event#/definitions/anthropicEvent`.",
      "type": "object",
      "required": [
        "type"
      ],
      "properties": {
        "type": {
          "enum": [
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
            "ping",
            "error"
          ]
        }
      },
      "allOf": [
        {
          "if": {
            "properties": {
              "type": {
                "const": "message_start"
              }
            }
          },
          "then": {
            "$ref": "#/definitions/anthropicMessageStart"
          }
        },
        {
          "if": {
            "properties": {
              "type": {
                "const": "content_block_start"
              }
            }
          },
          "then": {
            "$ref": "#/definitions/anthropicContentBlockStart"
          }
        },
        {
          "if": {
            "properties": {
              "type": {
                "const": "content_block_delta"
              }
            }
          },
          "then": {
            "$ref": "#/definitions/anthropicContentBlockDelta"
          }
        },
        {
          "if": {
            "properties": {
              "type": {
                "const": "content_block_stop"
              }
            }
          },
          "then": {
            "$ref": "#/definitions/anthropicContentBlockStop"
          }
        },
        {
          "if": {
            "properties": {
              "type": {
                "const": "message_delta"
              }
            }
          },
          "then": {
            "$ref": "#/definitions/anthropicMessageDelta"
          }
        },
        {
          "if": {
            "properties": {
              "type": {
                "const": "error"
              }
            }
          },
          "then": {
            "$ref": "#/definitions/anthropicError"
          }
        }
      ]
    },
    "anthropicMessageStart": {
      "type": "object",
      "required": [
        "type",
        "message"
      ],
      "properties": {
        "type": {
          "const": "message_start"
        },
        "message": {
          "type": "object",
          "required": [
            "id",
            "type",
            "role",
            "content",
            "model"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "type": {
              "const": "message"
            },
            "role": {
              "const": "assistant"
            },
            "content": {
              "type": "array"
            },
            "model": {
              "type": "string"
            },
            "stop_reason": {
              "type": [
                "string",
                "null"
              ]
            },
            "stop_sequence": {
              "type": [
                "string",
                "null"
              ]
            },
            "usage": {
              "$ref": "#/definitions/anthropicUsage"
            }
          }
        }
      }
    },
    "anthropicContentBlockStart": {
      "type": "object",
      "required": [
        "type",
        "index",
        "content_block"
      ],
      "properties": {
        "type": {
          "const": "content_block_start"
        },
        "index": {
          "$ref": "#/definitions/index"
        },
        "content_block": {
          "type": "object",
          "required": [
            "type"
          ],
          "properties": {
            "type": {
              "enum": [
                "text",
                "thinking",
                "tool_use"
              ]
            }
          },
          "allOf": [
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "text"
                  }
                }
              },
              "then": {
                "required": [
                  "text"
                ],
                "properties": {
                  "text": {
                    "type": "string"
                  }
                }
              }
            },
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "thinking"
                  }
                }
              },
              "then": {
                "required": [
                  "thinking"
                ],
                "properties": {
                  "thinking": {
                    "type": "string"
                  },
                  "signature": {
                    "type": "string"
                  }
                }
              }
            },
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "tool_use"
                  }
                }
              },
              "then": {
                "required": [
                  "id",
                  "name",
                  "input"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "minLength": 1
                  },
                  "name": {
                    "type": "string",
                    "minLength": 1
                  },
                  "input": {
                    "type": "object"
                  }
                }
              }
            }
          ]
        }
      }
    },
    "anthropicContentBlockDelta": {
      "type": "object",
      "required": [
        "type",
        "index",
        "delta"
      ],
      "properties": {
        "type": {
          "const": "content_block_delta"
        },
        "index": {
          "$ref": "#/definitions/index"
        },
        "delta": {
          "type": "object",
          "required": [
            "type"
          ],
          "properties": {
            "type": {
              "enum": [
                "text_delta",
                "thinking_delta",
                "input_json_delta",
                "signature_delta"
              ]
            }
          },
          "allOf": [
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "text_delta"
                  }
                }
              },
              "then": {
                "required": [
                  "text"
                ],
                "properties": {
                  "text": {
                    "type": "string"
                  }
                }
              }
            },
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "thinking_delta"
                  }
                }
              },
              "then": {
                "required": [
                  "thinking"
                ],
                "properties": {
                  "thinking": {
                    "type": "string"
                  }
                }
              }
            },
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "input_json_delta"
                  }
                }
              },
              "then": {
                "required": [
                  "partial_json"
                ],
                "properties": {
                  "partial_json": {
                    "type": "string"
                  }
                }
              }
            },
            {
              "if": {
                "properties": {
                  "type": {
                    "const": "signature_delta"
                  }
                }
              },
              "then": {
                "required": [
                  "signature"
                ],
                "properties": {
                  "signature": {
                    "type": "string"
                  }
                }
              }
            }
          ]
        }
      }
    },
    "anthropicContentBlockStop": {
      "type": "object",
      "required": [
        "type",
        "index"
      ],
      "properties": {
        "type": {
          "const": "content_block_stop"
        },
        "index": {
          "$ref": "#/definitions/index"
        }
      }
    },
    "anthropicMessageDelta": {
      "type": "object",
      "required": [
        "type",
        "delta"
      ],
      "properties": {
        "type": {
          "const": "message_delta"
        },
        "delta": {
          "type": "object",
          "properties": {
            "stop_reason": {
              "type": [
                "string",
                "null"
              ]
            },
            "stop_sequence": {
              "type": [
                "string",
                "null"
              ]
            }
          }
        },
        "usage": {
          "$ref": "#/definitions/anthropicUsage"
        }
      }
    },
    "anthropicError": {
      "type": "object",
      "required": [
        "type",
        "error"
      ],
      "properties": {
        "type": {
          "const": "error"
        },
        "error": {
          "type": "object",
          "required": [
            "type",
            "message"
          ],
          "properties": {
            "type": {
              "type": "string",
              "description": "e.g. overloaded_error."
            },
            "message": {
              "type": "string"
            }
          }
        }
      }
    },
    "anthropicUsage": {
      "type": "object",
      "properties": {
        "input_tokens": {
          "type": "integer",
          "minimum": 0
        },
        "output_tokens": {
          "type": "integer",
          "minimum": 0
        },
        "cache_creation_input_tokens": {
          "type": [
            "integer",
            "null"
          ],
          "minimum": 0
        },
        "cache_read_input_tokens": {
          "type": [
            "integer",
            "null"
          ],
          "minimum": 0
        }
      }
    }
  }
} as const;

export type BlockStreamEvent = FromSchema<typeof blockStreamEventSchema>;
