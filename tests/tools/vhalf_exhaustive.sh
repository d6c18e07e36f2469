#!/usr/bin/env bash
# vhalf_exhaustive.sh: builds tests/tools/vhalf_exhaustive.c against build/libwarplab.a (make
# first) and runs it over every pair of f16 operands for add, sub, mul, min and max, and every
# pair with a third drawn from them for fma (f16x2, both halves), three operations a core:
# about a minute of CPU each. Prints each one's counts; exits 1 if any result differs from
# sim_alu's. A verification tool, not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f build/libwarplab.a ] || { echo "vhalf_exhaustive: build/libwarplab.a missing (run: make)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -std=c11 -D_GNU_SOURCE -O2 -Iharness -I. -o "$out/vx" tests/tools/vhalf_exhaustive.c \
  build/libwarplab.a -ljansson -lm -ldl -pthread
rc=0
{ "$out/vx" add 1 && "$out/vx" sub 1 && "$out/vx" min 1; } > "$out/1" & p1=$!
{ "$out/vx" mul 1 && "$out/vx" fma 1 && "$out/vx" max 1; } > "$out/2" & p2=$!
wait $p1 || rc=1
wait $p2 || rc=1
cat "$out/1" "$out/2"
exit $rc
