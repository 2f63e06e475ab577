#!/usr/bin/env python3
"""Command mutant `client-command-decoder-shared-across-runs`: examples/python-client/client.py with
one defect, in the session form (docs/session-protocol.md). The process keeps ONE UTF-8 decoder for
every run and never flushes it at a run's end, as a client object with `self.decoder` does: bytes of
a stream cut inside a UTF-8 sequence stay in it and spoil the next stream's first line. A run read
alone (the one-shot form, or first in a fresh process) is read as the example reads it, so it must
fail CLI-ISO-001 only.
"""
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the example folder
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-client"))
import client  # noqa: E402  (the example, imported so the mutant differs from it in this one place)

_shared = client.new_decoder()


class SharedDecoder:
    def decode(self, chunk, final=False):
        # Never final: what a run ended inside of is kept for the next run.
        return _shared.decode(chunk, False)


client.new_decoder = SharedDecoder

if __name__ == "__main__":
    sys.exit(client.main())
