#!/usr/bin/env python3
"""ADK /run_sse frames -> AgentBriefingEvents, written from the seeds' sample code taken literally.

Calibration material (docs/calibration.md): its defects are kept on purpose. Sources:
- seed 001 "What Frontend Must Do": parse events into FunctionCall, FunctionResponse, ModelText;
  extract confidence and sources from text; build the reasoning chain from the call/response
  sequence; completion is `finishReason: "STOP"` with a text part (detectCompletion).
- seed 001 "Option A: Parse Text Responses": the two regexes and their defaults, as written
  (`parseInt(...) : 90`, `: 'Unknown'`), the percentage divided by 100 for seed 002's 0-1 range.
- seed 002 §2 (the AgentBriefingEvent schema) and §4.1 (the state machine: THINKING, DELEGATING,
  COMPLETE INSIGHT, ERROR STATUS).
Stdin: one SSE data field per line (docs/transform-contract.md). Stdout: one event per line.
"""
import datetime
import json
import os
import re
import sys
import uuid

CONFIDENCE = re.compile(r"\*\*Confidence:\*\*\s*(\d+)%")
SOURCE = re.compile(r"\*\*Source:\*\*\s*(.+?)(?:\n|$)")

session_id = os.environ.get("ADK_CONFORMANCE_SESSION_ID") or None
if len(sys.argv) > 2 and sys.argv[1] == "--session-id":
    session_id = sys.argv[2]
correlation_id = session_id
reasoning_chain = []


def emit(type_, source_agent, summary, state=None, detail=None, proof_layer=None):
    event = {
        "event_id": str(uuid.uuid4()),
        "correlation_id": correlation_id,
        "type": type_,
        "source_agent": source_agent,
        "content": {"summary": summary},
        "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
    }
    if state:
        event["state"] = state
    if detail is not None:
        event["content"]["detail"] = detail
    if proof_layer is not None:
        event["proof_layer"] = proof_layer
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def proof_from_text(text):
    # seed 001 Option A, literally: a missing confidence is 90, a missing source 'Unknown'.
    m = CONFIDENCE.search(text)
    confidence = int(m.group(1)) if m else 90
    s = SOURCE.search(text)
    source = s.group(1) if s else "Unknown"
    return {"confidence": confidence / 100, "citations": [{"source": source}], "reasoning_chain": list(reasoning_chain)}


def detect_completion(event):
    # seed 001 "Completion Detection Strategy (FINAL)".
    if event.get("finishReason") == "STOP":
        parts = (event.get("content") or {}).get("parts") or []
        return any(p.get("text") and not p.get("functionCall") for p in parts)
    return False


started = False
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        continue
    if correlation_id is None:
        correlation_id = event.get("invocationId", "unknown")
    author = event.get("author", "agent")
    if not started:
        emit("STATUS", author, f"{author} is thinking", state="THINKING")
        started = True
    if "error" in event or event.get("errorCode"):
        emit("STATUS", author, "Recovery failure", state="ERROR", detail=str(event.get("error") or event.get("errorMessage")))
        break
    parts = (event.get("content") or {}).get("parts") or []
    for part in parts:
        if "functionCall" in part:
            name = part["functionCall"].get("name", "")
            reasoning_chain.append(f"Delegated to {name}")
            emit("STATUS", author, f"Delegating to {name}", state="DELEGATING")
        elif "functionResponse" in part:
            name = part["functionResponse"].get("name", "")
            result = str((part["functionResponse"].get("response") or {}).get("result", ""))
            reasoning_chain.append(f"{name} responded")
            emit("INSIGHT", name, result.split("\n")[0] or name, detail=result, proof_layer=proof_from_text(result))
    if detect_completion(event):
        text = "".join(p.get("text", "") for p in parts)
        emit("INSIGHT", author, text.split("\n")[0], state="COMPLETE", detail=text, proof_layer=proof_from_text(text))
        break
