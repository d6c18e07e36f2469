#!/usr/bin/env bash
# make_occ_reference.sh: regenerate tests/unit/occ_reference.inc, the table of answers of the
# CUDA toolkit's occupancy calculator (cuda_occupancy.h) that tests/unit/check_occ.c holds
# warplab's calculator to. Needs g++ and the CUDA Toolkit's headers (no GPU). Run from
# anywhere; commit the result together with any change to the profiles' numbers.
#
#   bash tests/tools/make_occ_reference.sh [CUDA_HOME]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cuda=${1:-${CUDA_HOME:-/usr/local/cuda}}
[ -f "$cuda/include/cuda_occupancy.h" ] || { echo "make_occ_reference.sh: no $cuda/include/cuda_occupancy.h" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++17 -O1 -Wall -Wextra -I"$cuda/include" "$root/tests/tools/occ_reference.cpp" -o "$tmp/occ_reference"
"$tmp/occ_reference" > "$tmp/occ_reference.inc"
mv "$tmp/occ_reference.inc" "$root/tests/unit/occ_reference.inc"
echo "wrote tests/unit/occ_reference.inc"
