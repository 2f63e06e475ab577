#!/usr/bin/env python3
"""Command mutant `client-command-drops-http-error-text`: examples/python-client/client.py with one
defect, under the command contract. A non-200 answer ($ADK_CONFORMANCE_HTTP_STATUS) is reported as
`http-error` with its status, but the server's error text on stdin is thrown away, so a caller
cannot tell a missing session from a validation error or a crash. It must fail CLI-HTTP-001 only.
"""
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the example folder
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-client"))
import client  # noqa: E402  (the example, imported so the mutant differs from it in this one place)

_emit = client.emit


def emit(record, write=None):
    if record.get("end") == "http-error":
        record = {k: v for k, v in record.items() if k != "error"}
    _emit(record, write)


client.emit = emit

if __name__ == "__main__":
    sys.exit(client.main())
