"""Mutant transformer-keeps-every-briefing (ABE-MEM-001): the example Python transformer
(examples/python-transformer/transformer.py), in either form, with one defect: every briefing line
it writes is also kept in a module-level list that is never cleared, so a long-lived session process
grows with every run. Each briefing is the example's own; only the memory differs."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-transformer"))
import transformer  # noqa: E402

KEPT = []
_write = transformer.RunOut.write


def write(self, text):
    KEPT.append(text)
    return _write(self, text)


transformer.RunOut.write = write

if __name__ == "__main__":
    sys.exit(transformer.main(sys.argv[1:]))
