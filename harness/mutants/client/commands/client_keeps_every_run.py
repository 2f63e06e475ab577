#!/usr/bin/env python3
"""Command mutant `client-command-keeps-every-run`: examples/python-client/client.py with one defect,
in the session form (docs/session-protocol.md). Every record the process ever wrote is kept in a
module-level list and never cleared, as an app's debug log does: each record is still right, only
the memory grows, about 1 KB per stream, so it must fail CLI-MEM-001 only (a one-shot process ends
after its one stream and keeps nothing).
"""
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the example folder
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-client"))
import client  # noqa: E402  (the example, imported so the mutant differs from it in this one place)

_every_record = []
_emit = client.emit


def emit(record, write=None):
    _every_record.append(dict(record))
    return _emit(record, write)


client.emit = emit

if __name__ == "__main__":
    sys.exit(client.main())
