#!/usr/bin/env python3
"""ADK /run_sse frames -> AgentBriefingEvents, as an NDJSON stdio filter (Python 3 stdlib only).

A small, complete implementation of docs/transform-contract.md for teams that do not write
TypeScript. It reads one run's SSE `data` fields, one per line, and writes one AgentBriefingEvent
(seed 002 §2) per line, the last one being the run's single terminal event.

    python3 transformer.py [--session-id ID] < frames.ndjson > briefings.ndjson

Certify it with:  npx adk-conformance run --transformer-cmd "python3 examples/python-transformer/transformer.py"

The mapping follows docs/briefing-mapping.md: a STATUS THINKING per agent, STATUS DELEGATING per
specialist call (an agent called as a tool: its only argument is a string `request`), an INSIGHT
per specialist result, EXECUTING per plain tool call, an ALERT per failed tool or refused response,
SYNTHESIZING before the answer that follows answered calls, and at the end one COMPLETE INSIGHT or
one ERROR STATUS. The proof layer comes from `_audit_metadata` (seed 000 §3.3) or from the text
(`**Confidence:** 92%`, `**Source:** ...`, seed 001); a number nothing states is never invented,
and neither is a token count: a model turn's usage is copied, null where the model reported none.
"""

import json
import os
import re
import select
import sys
import uuid
from datetime import datetime, timezone

BLOCKED = {"SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "RECITATION"}
LINE_END = re.compile(rb"\r\n|\r|\n")
LEGACY_ERROR = re.compile(r'^\s*\{\s*"error"\s*:\s*"([\s\S]*)"\s*\}\s*$')
PERCENT = re.compile(r"(\d{1,3}(?:\.\d+)?)\s*%")
LABELLED = re.compile(r"\*\*\s*(overall\s+)?confidence\s*:?\s*\*\*\s*:?[ \t]*([^\n]*)", re.I)
INLINE = re.compile(r"\(\s*confidence\s*:\s*([^)]*)\)", re.I)
SOURCE_LINE = re.compile(r"\*\*\s*(sources?|regulatory\s+basis)\s*:?\s*\*\*\s*:?[ \t]*([^\n]*)", re.I)
QUALIFIER = re.compile(r"^(?:[A-Za-z][\w ]{0,30}:\s|\d{4}-\d{2}-\d{2}\b|(?:updated|accessed|retrieved|as of)\b)", re.I)


def tier_of(c):
    return 1 if c >= 0.9 else 2 if c >= 0.7 else 3 if c > 0 else 4


def notice_for(confidence, why):
    """Seed 002 §2.1: tiers 2-4 (and a missing score) come with a degradation notice."""
    if confidence is None:
        return "No confidence score: %s. None is inferred." % why
    tier = tier_of(confidence)
    if tier == 1:
        return None
    if tier == 4:
        return "Tier 4 (Failure): confidence 0.00, the source was unable to answer."
    return "Tier %d (%s): confidence %.2f is below the 0.90 authoritative threshold." % (tier, "Derived" if tier == 2 else "Historical", confidence)


def one_line(text, fallback):
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or not re.search(r"\w", line):
            continue
        line = re.sub(r"^[-*+]\s+|^\d+\.\s+", "", line).replace("**", "").replace("`", "").strip()
        if line:
            return line if len(line) <= 160 else line[:159] + "\u2026"
    return fallback


def score(statement):
    m = PERCENT.search(statement)
    if m:
        value = float(m.group(1))
        return round(value * 100) / 10000 if 0 <= value <= 100 else None
    m = re.match(r"^\s*(0(?:\.\d+)?|1(?:\.0+)?)\b", statement)
    return float(m.group(1)) if m else None


def text_proof(text, final):
    """Seed 001 Option A: the scores and sources a text states, never one it does not."""
    overall, lines, inline = [], [], []
    for m in LABELLED.finditer(text):
        s = score(m.group(2) or "")
        if s is not None:
            (overall if m.group(1) else lines).append(s)
    for m in INLINE.finditer(text):
        s = score(m.group(1) or "")
        if s is not None:
            inline.append(s)
    confidence = None
    if overall:
        confidence = overall[-1]
    elif lines and (not final or len(lines) == 1):
        confidence = lines[-1]
    elif not lines and len(inline) == 1:
        confidence = inline[0]
    citations = []
    for m in SOURCE_LINE.finditer(text):
        kind = "regulatory-basis" if "regulatory" in m.group(1).lower() else "text-source"
        value = re.sub(r"[*_]+$", "", (m.group(2) or "").rstrip()).rstrip(".").strip()
        for group in value.split(";"):
            first = True
            for piece in (p.strip() for p in group.split(",")):
                if not piece:
                    continue
                if citations and not first and QUALIFIER.match(piece):
                    prev = citations[-1]
                    prev["snippet"] = (prev["snippet"] + ", " + piece) if "snippet" in prev else piece
                else:
                    citations.append({"source": piece, "source_type": kind})
                first = False
    return confidence, citations


def usage_of(e):
    """The token counts a model event reported, copied; a count it did not report is None, never 0 (adk-js #645)."""
    u = e.get("usageMetadata")
    if not isinstance(u, dict):
        return None
    count = lambda v: v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    return {"prompt_token_count": count(u.get("promptTokenCount")), "candidates_token_count": count(u.get("candidatesTokenCount")),
            "total_token_count": count(u.get("totalTokenCount"))}


def unique(citations):
    seen, out = set(), []
    for c in citations:
        if c["source"] not in seen:
            seen.add(c["source"])
            out.append(c)
    return out


class Transformer:
    def __init__(self, session_id, out):
        self.session_id = session_id
        self.out = out
        self.correlation = session_id
        self.sequence = 0
        self.done = False
        self.thinking = set()
        self.calls = {}        # call id (or "name:<n>") -> (kind, announcing event id, name)
        self.answered = set()  # agents whose calls were answered: their next answer is a synthesis
        self.synthesizing = False
        self.candidate = None  # the held answer: dict(author, text, finish, parent)
        self.pending_error = None
        self.audit = {}        # audit event_id -> entry (the trail accumulates over the run)
        self.consulted = []
        self.seen = set()
        self.root = None
        self.chunks = {}

    # -- output ---------------------------------------------------------------------------------
    def emit(self, kind, agent, summary, state=None, **extra):
        event = {
            "event_id": str(uuid.uuid4()),
            "correlation_id": self.correlation or ("run-" + str(uuid.uuid4())),
            "parent_event_id": extra.pop("parent", None),
            "type": kind,
            "source_agent": agent,
            "content": {"summary": summary},
        }
        self.correlation = event["correlation_id"]
        for key in ("detail", "degradation_notice"):
            if extra.get(key) is not None:
                event["content"][key] = extra.pop(key)
            extra.pop(key, None)
        if state:
            event["state"] = state
        if "usage" in extra:  # null is a value here: the model reported no usage (docs/briefing-mapping.md)
            event["usage"] = extra.pop("usage")
        event.update({k: v for k, v in extra.items() if v is not None})
        event["sequence"] = self.sequence
        event["timestamp"] = datetime.now(timezone.utc).isoformat()
        self.sequence += 1
        self.out.write(json.dumps(event, ensure_ascii=False) + "\n")
        self.out.flush()
        if state in ("COMPLETE", "ERROR"):
            self.done = True
        return event["event_id"]

    def proof(self, agent, text, final):
        """Audit trail first (seed 000 §3.3), then the text; returns (proof_layer, notice)."""
        records = [r for r in self.audit.values() if r.get("agent") == agent]
        outcomes = [r for r in records if r["event_type"] in ("tool_response", "tool_error")]
        if outcomes:
            last = outcomes[-1]
            confidence = 0.0 if last["event_type"] == "tool_error" else last.get("confidence")
            citations, inputs, steps = [], [], []
            for r in records:
                label = r.get("data_source_label")
                if r["event_type"] in ("data_load", "mcp_fetch") and label:
                    citations.append({"source": label, "source_type": "RANGER-Fixtures" if r["event_type"] == "data_load" else "MCP"})
                    c = r.get("data_confidence", confidence)
                    if isinstance(c, (int, float)):
                        inputs.append({"source": label, "confidence": c, "tier": r.get("data_tier") or tier_of(c), "notes": r.get("notes", "")})
                if r["event_type"] == "reasoning_step" and r.get("description"):
                    steps.append((r.get("timestamp", ""), r["description"]))
                if r["event_type"] == "tool_response":
                    for step in r.get("reasoning_steps") or r.get("reasoning_chain") or []:
                        steps.append((r.get("timestamp", ""), step))
                    for source in r.get("data_sources") or []:
                        citations.append({"source": source, "source_type": "tool-data-source"})
                        if isinstance(r.get("confidence"), (int, float)) and all(i["source"] != source for i in inputs):
                            inputs.append({"source": source, "confidence": r["confidence"], "tier": tier_of(r["confidence"]), "notes": ""})
            steps.sort(key=lambda s: s[0])
            layer = {"reasoning_chain": [s[1] for s in steps], "citations": unique(citations)}
            if isinstance(confidence, (int, float)):
                layer["confidence"] = confidence
                # A confidence_calc entry states the ledger itself, taken as stated (mapping rule MAP-PROOF-004).
                calcs = [r for r in records if r["event_type"] == "confidence_calc" and isinstance(r.get("inputs"), list) and r["inputs"]]
                if calcs:
                    calc = calcs[-1]
                    stated = [{"source": i["source"], "confidence": i["confidence"], "tier": i.get("tier") or tier_of(i["confidence"]), "notes": i.get("notes", "")}
                              for i in calc["inputs"] if isinstance(i, dict) and isinstance(i.get("source"), str) and isinstance(i.get("confidence"), (int, float))]
                    analysis = calc.get("analysis_confidence", confidence)
                    layer["confidence_ledger"] = {"inputs": stated, "analysis_confidence": analysis, "recommendation_confidence": calc.get("recommendation_confidence", analysis)}
                elif inputs:
                    layer["confidence_ledger"] = {"inputs": inputs, "analysis_confidence": confidence, "recommendation_confidence": confidence}
            return layer, notice_for(layer.get("confidence"), "the audit trail states no confidence")
        confidence, citations = text_proof(text, final)
        if final:
            citations = citations + self.consulted
        layer = {"reasoning_chain": [], "citations": unique(citations)}
        if confidence is not None:
            layer["confidence"] = confidence
        return layer, notice_for(confidence, "the text states none")

    # -- input ------------------------------------------------------------------------------------
    def line(self, data, number):
        if self.done or data == "":
            return
        if data.strip() == "[DONE]":
            return self.end()
        try:
            payload = json.loads(data)
        except ValueError as error:
            legacy = LEGACY_ERROR.match(data)
            if legacy:
                return self.error_frame(legacy.group(1))
            return self.invalid(number, "invalid JSON: %s" % error)
        if not isinstance(payload, dict):
            return self.invalid(number, "expected a JSON object, got %s" % type(payload).__name__)
        if "error" in payload or not payload:
            message = payload.get("error")
            if isinstance(message, dict):
                message = message.get("message") or json.dumps(message)
            return self.error_frame(message if isinstance(message, str) and message else "the server failed without a message")
        self.event(payload)

    def invalid(self, number, reason):
        sys.stderr.write("transformer.py: line %d: %s\n" % (number, reason))
        self.emit("ALERT", "adk", "line %d: unreadable frame" % number, detail=reason + ". The frame was skipped.",
                  error={"source": "input", "code": "INVALID_FRAME", "message": "line %d: %s" % (number, reason)})

    def error_frame(self, message):
        agent = (self.candidate or {}).get("author") or (self.pending_error or {}).get("author") or self.root or "adk"
        self.flush_error()  # the server spoke again after the model error: it is reported before the terminal event
        self.flush_candidate(False)
        self.emit("STATUS", agent, one_line("Error: " + message, "Error"), "ERROR",
                  detail="The agent service reported an error. Retry the request; if it persists, check the agent's logs.",
                  error={"source": "error-frame", "message": message})

    def event(self, e):
        for entry in e.get("_audit_metadata") or []:
            if isinstance(entry, dict) and isinstance(entry.get("event_type"), str):
                flat = dict(entry, **entry["payload"]) if isinstance(entry.get("payload"), dict) else entry
                self.audit.setdefault(entry.get("event_id") or json.dumps(entry, sort_keys=True), flat)
        if self.correlation is None and isinstance(e.get("invocationId"), str):
            self.correlation = e["invocationId"]
        author = e.get("author") if isinstance(e.get("author"), str) else "unknown"
        content = e.get("content") if isinstance(e.get("content"), dict) else {}
        parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
        text = "".join(p["text"] for p in parts if isinstance(p.get("text"), str) and not p.get("thought"))
        code = e.get("errorCode")
        partial = e.get("partial") is True
        if author not in self.thinking and (content.get("role") == "model" or code is not None or (partial and parts)):
            self.thinking.add(author)
            self.root = self.root or author
            self.emit("STATUS", author, "%s is thinking" % author, "THINKING")
        if partial:  # chunks come back whole in the partial:false event (adk-wire-format §5b)
            self.chunks[author] = self.chunks.get(author, "") + text
            return
        key = (e.get("id"), json.dumps(content, sort_keys=True))
        if parts and key in self.seen:
            return  # Python's artifact split repeats an event's content under the same id
        self.seen.add(key)
        if text or any("functionCall" in p for p in parts):
            self.chunks.pop(author, None)
        if parts or code is not None:
            self.flush_error()  # the run went on after a model error (adk-js calls the model again after an unknown tool)
        if code is not None:
            code = str(code)
            self.flush_candidate(False)
            if text:
                self.candidate = {"author": author, "text": text, "finish": e.get("finishReason"), "parent": None, "usage": usage_of(e)}
                self.flush_candidate(False)
            if code in BLOCKED:
                self.emit("ALERT", author, "%s's response was blocked (%s)" % (author, code), detail=e.get("errorMessage") or code,
                          error={"source": "error-code", "code": code, "message": e.get("errorMessage") or ""})
            self.pending_error = {"author": author, "code": code, "message": e.get("errorMessage") or "", "alerted": code in BLOCKED}
            return
        if not parts:
            return  # adk-js's usage report after a tool round
        calls = [p["functionCall"] for p in parts if isinstance(p.get("functionCall"), dict)]
        responses = [p["functionResponse"] for p in parts if isinstance(p.get("functionResponse"), dict)]
        if calls:
            return self.on_calls(author, calls, text, usage_of(e))
        if responses:
            return self.on_responses(e, author, responses)
        if text:
            self.flush_candidate(False)
            self.candidate = {"author": author, "text": text, "finish": e.get("finishReason"), "parent": None, "usage": usage_of(e)}
            if self.candidate["finish"] is not None:
                self.synthesize(author)

    def on_calls(self, author, calls, said, usage):
        narration = said
        c = self.candidate
        if c and c["author"] == author and c["finish"] is None and not c.get("result"):
            narration = "\n\n".join(x for x in (c["text"], said) if x)  # adk-js splits the text before calls
            self.candidate = None
        else:
            self.flush_candidate(False)
        self.synthesizing = False
        for i, call in enumerate(calls):
            name = call.get("name") if isinstance(call.get("name"), str) else "unknown_tool"
            args = call.get("args") if isinstance(call.get("args"), dict) else {}
            if name == "transfer_to_agent":
                kind, target = "transfer", args.get("agentName") or args.get("agent_name") or "unknown_agent"
                summary = "%s transfers the conversation to %s" % (author, target)
            elif list(args) == ["request"] and isinstance(args["request"], str):
                kind, target, summary = "specialist", name, "%s delegates to %s" % (author, name)
            else:
                kind, target, summary = "tool", name, "%s runs tool %s" % (author, name)
            request = args["request"] if kind == "specialist" else json.dumps(args, ensure_ascii=False)
            detail = "\n\n".join(x for x in (narration if i == 0 else "", "" if kind == "transfer" else "Request: " + request) if x)
            turn = {"usage": usage} if i == 0 else {}  # the LLM call's usage, once per turn
            announced = self.emit("STATUS", author, summary, "EXECUTING" if kind == "tool" else "DELEGATING",
                                  detail=detail or None, delegate_to=target, skill_id=name if kind == "tool" else None, **turn)
            self.calls[call.get("id") or "name:" + name] = (kind, announced, name)

    def on_responses(self, e, author, responses):
        self.flush_candidate(False)
        self.answered.add(author)
        skip = isinstance(e.get("actions"), dict) and e["actions"].get("skipSummarization") is True
        for i, r in enumerate(responses):
            name = r.get("name") if isinstance(r.get("name"), str) else "unknown_tool"
            kind, parent, _ = self.calls.get(r.get("id") or "", self.calls.get("name:" + name, ("tool", None, name)))
            if kind == "transfer":
                continue
            response = r.get("response")
            agent = name if kind == "specialist" else author
            error = response.get("error") if isinstance(response, dict) else None
            if error:
                failure = error if isinstance(error, str) else json.dumps(error)
                self.emit("ALERT", agent, one_line("%s failed: %s" % (name, failure), "Tool failure"), parent=parent, skill_id=name,
                          detail=failure, degradation_notice=notice_for(0.0, ""), error={"source": "tool", "message": failure},
                          proof_layer={"confidence": 0.0, "reasoning_chain": [], "citations": []})
                continue
            answer = response if isinstance(response, str) else response.get("result") if isinstance(response, dict) and isinstance(response.get("result"), str) else json.dumps(response, indent=2)
            if skip and i == len(responses) - 1:
                self.candidate = {"author": agent, "text": answer, "finish": "STOP", "parent": parent, "result": True}
                continue
            if kind != "specialist":
                continue
            layer, notice = self.proof(name, answer, False)
            self.consulted.extend(layer["citations"])
            self.emit("INSIGHT", name, one_line(answer, "%s answered" % name), parent=parent, skill_id=name,
                      detail=answer, degradation_notice=notice, proof_layer=layer)

    def flush_error(self):
        """A held model error the run went on after becomes an ALERT (docs/briefing-mapping.md)."""
        p, self.pending_error = self.pending_error, None
        if not p or p["alerted"]:
            return
        message = p["code"] + (": " + p["message"] if p["message"] else "")
        self.emit("ALERT", p["author"], one_line("Model error: " + message, "Model error"),
                  detail="The model reported %s and the run went on. If it recurs, check the agent's tools and the model's quota." % p["code"],
                  error={"source": "error-code", "code": p["code"], "message": p["message"]})

    def synthesize(self, author):
        if not self.synthesizing and author in self.answered:
            self.synthesizing = True
            self.emit("STATUS", author, "%s is synthesizing the answer" % author, "SYNTHESIZING")

    def flush_candidate(self, complete):
        c, self.candidate = self.candidate, None
        if not c:
            return
        if complete and not c.get("result"):
            self.synthesize(c["author"])
        layer, notice = self.proof(c["author"], c["text"], not c.get("result"))
        self.emit("INSIGHT", c["author"], one_line(c["text"], "%s answered" % c["author"]), "COMPLETE" if complete else None,
                  parent=c["parent"], detail=c["text"], degradation_notice=notice, proof_layer=layer,
                  **({"usage": c["usage"]} if "usage" in c else {}))

    def end(self):
        if self.done:
            return
        if self.pending_error:
            p, self.pending_error = self.pending_error, None
            message = p["code"] + (": " + p["message"] if p["message"] else "")
            self.flush_candidate(False)
            self.emit("STATUS", p["author"], one_line("Error: " + message, "Error"), "ERROR",
                      detail="The model reported %s. Retry the request; if it persists, check the model's quota and the agent's logs." % p["code"],
                      error={"source": "error-code", "code": p["code"], "message": p["message"]})
        elif self.candidate:
            self.flush_candidate(True)
        else:
            streamed = "".join(" %s had streamed %d characters that no complete event confirmed." % (a, len(t)) for a, t in self.chunks.items() if t)
            self.emit("STATUS", self.root or "adk", "Error: the stream ended without a final answer", "ERROR",
                      detail=("Retry the request; if it keeps ending early, check the agent service." + streamed).strip(),
                      error={"source": "stream", "code": "NO_FINAL_ANSWER", "message": "the stream ended without a final answer"})


def lines_of(fd, idle_seconds, has_candidate):
    """Yield decoded input lines; yield None when the input stayed silent for the idle window."""
    # Only each new chunk is searched and an unfinished line's pieces are joined once, at its end: one
    # buffer appended to and searched from its start costs time quadratic in a long line's length.
    pending, first, after_cr = [], True, False
    while True:
        timeout = idle_seconds if has_candidate() else None
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            yield None
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        if first:
            pending.append(chunk)
            head = b"".join(pending)
            if len(head) < 3 and b"\xef\xbb\xbf".startswith(head):
                continue  # may be the start of a byte order mark
            chunk, pending, first = (head[3:] if head.startswith(b"\xef\xbb\xbf") else head), [], False
        if after_cr and chunk:
            chunk, after_cr = (chunk[1:] if chunk[:1] == b"\n" else chunk), False  # the LF of a CRLF split between chunks
        start = 0
        for m in LINE_END.finditer(chunk):
            pending.append(chunk[start:m.start()])
            line, pending = b"".join(pending), []
            yield line.decode("utf-8", "replace")
            start = m.end()
        if start < len(chunk):
            pending.append(chunk[start:])
        elif chunk.endswith(b"\r"):
            after_cr = True
    if pending:
        yield b"".join(pending).decode("utf-8", "replace")


class RunOut:
    """A run's stdout in the session form: each line the one-shot form would write, tagged with the run."""

    def __init__(self, run, send):
        self.run, self.send = run, send

    def write(self, text):
        for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
            self.send({"run": self.run, "line": line})

    def flush(self):
        sys.stdout.flush()


def serve_session():
    """docs/session-protocol.md: one process, many runs, each with its own Transformer and idle clock."""
    import time
    out = sys.stdout

    def send(message):
        out.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()

    runs = {}  # run id -> [Transformer, idle seconds, time of its last input, its line number]
    fd, buffer = sys.stdin.fileno(), b""
    while True:
        now = time.monotonic()
        # The nearest idle deadline of a run holding an answer (seed 001: the answer, then silence).
        due = [r[2] + r[1] for r in runs.values() if r[0].candidate is not None and not r[0].done]
        timeout = max(0.0, min(due) - now) if due else None
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            now = time.monotonic()
            for r in runs.values():
                if r[0].candidate is not None and not r[0].done and now >= r[2] + r[1]:
                    r[0].end()
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return 0
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            if not raw.strip():
                continue
            m = json.loads(raw)
            cmd, run = m.get("cmd"), m.get("run")
            if cmd == "start":
                send({"cmd": "ready", "protocol": 1, "implementation": {
                    "name": "python-transformer", "version": "1.0.0", "language": "python",
                    "parts": ["transformer"], "dialects": ["adk-js", "adk-python", "adk-go"]}})
            elif cmd == "open":
                env = m.get("env") or {}
                t = Transformer(env.get("ADK_CONFORMANCE_SESSION_ID") or None, RunOut(run, send))
                runs[run] = [t, float(env.get("ADK_CONFORMANCE_IDLE_MS") or 10000) / 1000, time.monotonic(), 0]
            elif cmd == "input" and run in runs:
                r = runs[run]
                r[2], r[3] = time.monotonic(), r[3] + 1
                text = m["text"] if "text" in m else __import__("base64").b64decode(m["bytes"]).decode("utf-8", "replace")
                if r[3] == 1 and text.startswith("\ufeff"):
                    text = text[1:]
                for line in re.split(r"\r\n|\r|\n", text) if text else [""]:
                    if line.strip():
                        r[0].line(line, r[3])
            elif cmd == "end" and run in runs:
                runs.pop(run)[0].end()
                send({"run": run, "exit": 0})
            elif cmd == "cancel":
                runs.pop(run, None)
            elif cmd == "stop":
                return 0


def main(argv):
    if os.environ.get("ADK_CONFORMANCE_PROTOCOL") == "session":
        return serve_session()
    session_id = os.environ.get("ADK_CONFORMANCE_SESSION_ID") or None
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--session-id" and args:
            session_id = args.pop(0)
        elif flag in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        else:
            sys.stderr.write("transformer.py: unknown argument %r; usage: transformer.py [--session-id ID] < frames.ndjson\n" % flag)
            return 2
    idle = float(os.environ.get("ADK_CONFORMANCE_IDLE_MS") or 10000) / 1000
    t = Transformer(session_id, sys.stdout)
    number = 0
    try:
        for line in lines_of(sys.stdin.fileno(), idle, lambda: t.candidate is not None and not t.done):
            if line is None:  # seed 001: the final answer, then silence: the run is complete
                t.end()
                continue
            number += 1
            t.line(line, number)
        t.end()
    except BrokenPipeError:
        sys.stderr.write("transformer.py: stdout closed\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
