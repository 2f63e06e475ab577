"""Wrap a one-shot per-line filter in the session form (docs/session-protocol.md): one process, many runs.

    from adapter import serve
    serve({"name": "my-transformer", "version": "1.0.0", "language": "python", "parts": ["transformer"]},
          make_run)   # make_run(env, write) -> (on_line(text), on_end()); write(text) writes one output line
"""
import base64, json, os, sys


def serve(implementation, make_run):
    def send(message):
        sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    runs = {}
    for raw in sys.stdin:
        m = json.loads(raw)
        cmd, run = m.get("cmd"), m.get("run")
        if cmd == "start":
            send({"cmd": "ready", "protocol": 1, "implementation": implementation})
        elif cmd == "open":
            runs[run] = make_run(m.get("env") or {}, lambda text, run=run: send({"run": run, "line": text}))
        elif cmd == "input" and run in runs:
            text = m["text"] if "text" in m else base64.b64decode(m["bytes"]).decode("utf-8", "replace")
            runs[run][0](text)
        elif cmd == "end" and run in runs:
            runs.pop(run)[1]()
            send({"run": run, "exit": 0})
        elif cmd == "cancel":
            runs.pop(run, None)
        elif cmd == "stop":
            return 0
    return 0


def serve_or_run_once(implementation, make_run):
    """The session form when the harness asks for it, else the one-shot form over stdin and stdout."""
    if os.environ.get("ADK_CONFORMANCE_PROTOCOL") == "session":
        return serve(implementation, make_run)
    on_line, on_end = make_run(dict(os.environ), lambda text: (sys.stdout.write(text + "\n"), sys.stdout.flush()))
    for raw in sys.stdin:
        on_line(raw.rstrip("\r\n"))
    on_end()
    return 0
