#!/usr/bin/env bash
# vfp_libm_exhaustive.sh: builds tests/tools/vfp_libm_exhaustive.c against build/libwarplab.a
# (make first) and runs it over every f32 bit pattern for exp2, log2, sin and cos, the two
# halves of each on a core of their own: about 20 minutes of CPU. Prints each half's counts;
# exits 1 if any result differs from libm's. A verification tool, not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f build/libwarplab.a ] || { echo "vfp_libm_exhaustive: build/libwarplab.a missing (run: make)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -std=c11 -D_GNU_SOURCE -O2 -Iharness -I. -o "$out/vx" tests/tools/vfp_libm_exhaustive.c \
  build/libwarplab.a -ljansson -lm -ldl -pthread
rc=0
for f in exp2 log2 sin cos; do
  "$out/vx" $f 0 0x7fffffff > "$out/$f.1" & p1=$!
  "$out/vx" $f 0x80000000 0xffffffff > "$out/$f.2" & p2=$!
  wait $p1 || rc=1
  wait $p2 || rc=1
  cat "$out/$f.1" "$out/$f.2"
done
exit $rc
