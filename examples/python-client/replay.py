#!/usr/bin/env python3
"""Replay one adk-conformance scenario against the mock ADK server, with the standard library only.

    python3 replay.py --mock http://127.0.0.1:8080 --scenario ../../scenarios/plain_text.json

It follows docs/runner-guide.md step by step: load the scenario file, arm the run (create the
session under the app named after the scenario), send the request the scenario describes, read
the Server-Sent Events stream the WHATWG way, and compare what arrived with the scenario's
`expect` block (and, for `kind: bytes` scripts, with the exact bytes). Exit 0 when every check
holds, 1 when one does not, 2 on a usage error. The point: the corpus is plain JSON, so any
language with an HTTP client and a JSON parser can replay it.
"""
import argparse
import base64
import http.client
import json
import socket
import sys
import urllib.parse
import uuid


def load(path):
    """Step 1: load. A scenario is one JSON object (schemas/scenario.schema.json)."""
    with open(path, "r", encoding="utf-8-sig") as handle:
        scenario = json.load(handle)
    for key in ("id", "session", "request", "upstream", "expect"):
        if key not in scenario:
            raise ValueError(f"{path}: not a scenario (no '{key}')")
    return scenario


def post(base, path, body, timeout):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=timeout)
    payload = json.dumps(body).encode("utf-8")
    connection.request("POST", path, body=payload, headers={"Content-Type": "application/json", "Accept": "text/event-stream"})
    return connection, connection.getresponse()


def arm(base, scenario, session_id, timeout):
    """Step 2: arm. The app name is the scenario id; `session.create: false` means no session."""
    if scenario["session"].get("create", True) is False:
        return
    app = urllib.parse.quote(scenario["id"], safe="")
    user = urllib.parse.quote(scenario["session"]["userId"], safe="")
    path = f"/apps/{app}/users/{user}/sessions/{urllib.parse.quote(session_id, safe='')}"
    body = {"state": scenario["session"]["state"]} if "state" in scenario["session"] else {}
    connection, response = post(base, path, body, timeout)
    response.read()
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"creating the session answered HTTP {response.status}")


def send(base, scenario, session_id, timeout, idle):
    """Step 3: send the run request; keep every body byte, and how the body ended."""
    request = scenario["request"]
    body = {
        "appName": scenario["id"],
        "userId": scenario["session"]["userId"],
        "sessionId": session_id,
        "newMessage": {"role": "user", "parts": [{"text": request["message"]}]},
        "streaming": bool(request.get("streaming", False)),
    }
    if "stateDelta" in request:
        body["stateDelta"] = request["stateDelta"]
    connection, response = post(base, request.get("endpoint", "/run_sse"), body, timeout)
    connection.sock.settimeout(idle)
    chunks, ending = [], "eof"
    while True:
        try:
            chunk = response.read1(65536)
        except socket.timeout:
            ending = "idle"  # the server holds the stream open
            break
        except (http.client.IncompleteRead, ConnectionError, OSError):
            ending = "reset"  # the connection broke before the end of the body
            break
        if not chunk:
            break
        chunks.append(chunk)
    connection.close()
    return response.status, b"".join(chunks), ending


def parse_sse(body):
    """The WHATWG event-stream interpretation: CRLF, LF or CR end a line; a blank line dispatches."""
    text = body.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    frames, data, has_data = [], [], False
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    # The last element is what follows the last line end: an unterminated line, never dispatched.
    for line in lines[:-1]:
        if line == "":
            if has_data:
                frames.append("\n".join(data))
            data, has_data = [], False
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
            has_data = True
    return frames


def expected_bytes(upstream):
    out = b""
    for chunk in upstream["chunks"]:
        piece = chunk["text"].encode("utf-8") if "text" in chunk else base64.b64decode(chunk["base64"])
        out += piece * chunk.get("repeat", 1)
    return out


def subset(expected, actual):
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(key in actual and subset(value, actual[key]) for key, value in expected.items())
    return expected == actual


def final_text(frames):
    """The text of the last non-partial event without calls, responses or errorCode."""
    for data in reversed(frames):
        try:
            event = json.loads(data)
        except ValueError:
            continue
        if not isinstance(event, dict) or event.get("partial") is True or "errorCode" in event:
            continue
        parts = (event.get("content") or {}).get("parts") or []
        if any("functionCall" in p or "functionResponse" in p for p in parts):
            return None
        text = "".join(p["text"] for p in parts if isinstance(p.get("text"), str) and p.get("thought") is not True)
        if text:
            return text
    return None


def compare(scenario, status, body, ending):
    """Step 4: compare. Each check is (name, holds, detail)."""
    expect, upstream = scenario["expect"], scenario["upstream"]
    frames = parse_sse(body)
    checks = [("status", status == expect["status"], f"expected {expect['status']}, got {status}")]
    if expect["outcome"] == "http-error":
        return checks
    if "frames" in expect:
        checks.append(("frames", len(frames) == expect["frames"], f"expected {expect['frames']} frames, got {len(frames)}"))
    if upstream["kind"] == "bytes" and not scenario.get("faults"):
        want = expected_bytes(upstream)
        checks.append(("bytes", body == want, f"expected {len(want)} bytes, got {len(body)}" + ("" if body == want else f"; first difference at byte {next((i for i, (a, b) in enumerate(zip(body, want)) if a != b), min(len(body), len(want)))}")))
    endings = {"complete": "eof", "error": "eof", "hold-open": "idle"}
    if expect["outcome"] in endings:
        checks.append(("ending", ending == endings[expect["outcome"]], f"outcome {expect['outcome']} ends with {endings[expect['outcome']]}, the stream ended with {ending}"))
    if "errorFrame" in expect and frames:
        wanted = expect["errorFrame"]
        if set(wanted) == {"raw"}:
            checks.append(("errorFrame", frames[-1] == wanted["raw"], f"last frame is {frames[-1][:80]!r}"))
        else:
            try:
                last = json.loads(frames[-1])
            except ValueError:
                last = None
            checks.append(("errorFrame", subset(wanted, last), f"last frame {frames[-1][:80]!r} does not contain {json.dumps(wanted)}"))
    if "finalText" in expect:
        got = final_text(frames)
        checks.append(("finalText", got == expect["finalText"], f"final text is {(got or '')[:60]!r}"))
    return checks


def main(argv):
    parser = argparse.ArgumentParser(description="Replay one adk-conformance scenario against the mock ADK server.")
    parser.add_argument("--mock", required=True, help="the mock's base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--scenario", required=True, help="a scenario file, e.g. scenarios/plain_text.json")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="how long a silence may last before a stream counts as held open")
    parser.add_argument("--timeout-seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    try:
        scenario = load(args.scenario)
    except (OSError, ValueError) as error:
        print(f"replay.py: {error}", file=sys.stderr)
        return 2
    if scenario["upstream"]["kind"] == "anthropic-turn" or scenario["request"].get("endpoint") == "/v1/messages":
        print(f"replay.py: {scenario['id']} is an Anthropic Messages turn, not an ADK run; this client replays ADK runs", file=sys.stderr)
        return 2
    session_id = f"{scenario['session']['sessionId']}-py-{uuid.uuid4().hex[:8]}"
    if scenario["session"].get("create", True) is False:
        session_id = scenario["session"]["sessionId"]
    try:
        arm(args.mock, scenario, session_id, args.timeout_seconds)
        status, body, ending = send(args.mock, scenario, session_id, args.timeout_seconds, args.idle_seconds)
    except (OSError, RuntimeError, http.client.HTTPException) as error:
        print(f"replay.py: cannot replay {scenario['id']} on {args.mock}: {error}", file=sys.stderr)
        return 1
    checks = compare(scenario, status, body, ending)
    for name, holds, detail in checks:
        print(f"{'ok  ' if holds else 'FAIL'} {scenario['id']} {name}" + ("" if holds else f": {detail}"))
    failed = [name for name, holds, _ in checks if not holds]
    print(f"{scenario['id']}: {len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
