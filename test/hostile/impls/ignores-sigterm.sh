#!/bin/sh
# A shell implementation that ignores SIGTERM and never exits: `trap '' TERM` is inherited by the
# sleeps it starts, so stopping it needs SIGKILL on its whole process group.
#   sh test/hostile/impls/ignores-sigterm.sh [marker]
trap '' TERM
echo "ignoring SIGTERM" >&2
while :; do sleep 1; done
