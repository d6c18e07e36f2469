#!/usr/bin/env bash
# autograder_ubuntu.sh: the Gradescope autograder installed and run on a fresh Ubuntu, as
# Gradescope does it (issue 16): a minimal Ubuntu root made by debootstrap (universe enabled,
# as in Ubuntu's Docker images), the folder `warplab autograder NN` writes copied to
# /autograder/source, setup.sh run there as root, then run_autograder on three submissions
# (the reference solution, an empty one, one that does not build), each results.json checked.
#
#   sudo bash tests/tools/autograder_ubuntu.sh WARPLAB ROOTFS [SUITE] [NN]
#
# SUITE defaults to jammy (22.04), NN to 01. Needs root, debootstrap and the Ubuntu archive.
# When NVIDIA's CUDA repository cannot be reached, the host's CUDA toolkit is bound read-only
# at /usr/local/cuda in the root, so setup.sh finds nvcc and skips that one step (say so).
set -euo pipefail
WL=$(realpath "${1:?usage: autograder_ubuntu.sh WARPLAB ROOTFS [SUITE] [NN]}")
J=${2:?usage: autograder_ubuntu.sh WARPLAB ROOTFS [SUITE] [NN]}
SUITE=${3:-jammy}
NN=${4:-01}
cd "$(dirname "$0")/../.."
[ -x "$J/bin/bash" ] || debootstrap --no-check-gpg --variant=minbase "$SUITE" "$J" http://archive.ubuntu.com/ubuntu
printf 'deb http://archive.ubuntu.com/ubuntu %s main restricted universe multiverse\n' "$SUITE" "$SUITE-updates" \
  >"$J/etc/apt/sources.list"
cp /etc/resolv.conf "$J/etc/resolv.conf"
AG=$(mktemp -d)
trap 'umount "$J/usr/local/cuda" "$J/sys" "$J/dev" "$J/proc" 2>/dev/null || true; rm -rf "$AG"' EXIT
"$WL" autograder "$NN" --out "$AG/ag" >/dev/null
rm -rf "$J/autograder" && mkdir -p "$J/autograder/source" "$J/autograder/submission" "$J/autograder/results"
cp -a "$AG/ag/." "$J/autograder/source/"
mountpoint -q "$J/proc" || mount -t proc proc "$J/proc"
mountpoint -q "$J/dev" || mount --bind /dev "$J/dev"
mountpoint -q "$J/sys" || mount --bind /sys "$J/sys"
if ! curl -fsI --max-time 10 https://developer.download.nvidia.com/compute/cuda/repos/ >/dev/null 2>&1; then
  echo "NVIDIA's CUDA repository unreachable: the host's toolkit is bound at /usr/local/cuda"
  mkdir -p "$J/usr/local/cuda"
  mountpoint -q "$J/usr/local/cuda" || mount --bind -o ro "$(readlink -f /usr/local/cuda)" "$J/usr/local/cuda"
fi
t0=$(date +%s)
chroot "$J" /bin/bash -c 'cd /autograder/source && bash ./setup.sh' >"$AG/setup.log" 2>&1 ||
  { tail -30 "$AG/setup.log"; echo "FAIL: setup.sh"; exit 1; }
echo "setup.sh: ok in $(( $(date +%s) - t0 )) s ($(chroot "$J" /bin/bash -c '. /etc/os-release; echo $PRETTY_NAME'))"
kfile=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernel_file'])" labs/"$NN"-*/lab.json)
fails=0
for sub in solution empty broken; do
  rm -rf "$J/autograder/submission/"* "$J/autograder/results/"*
  case $sub in
    solution) cp solutions/"$NN"-*/"$kfile" "$J/autograder/submission/" ;;
    broken) echo '__global__ void k(float *a { }' >"$J/autograder/submission/$kfile" ;;
  esac
  chroot "$J" /bin/bash -c 'bash /autograder/source/run_autograder' >"$AG/run_$sub.log" 2>&1 || true
  line=$(python3 - "$J/autograder/results/results.json" "$sub" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); sub = sys.argv[2]
score = d.get("score"); n = len(d.get("tests", []))
ok = {"solution": score is not None and score >= 85, "empty": score == 0, "broken": score == 0 and n > 1}[sub]
print(("ok  " if ok else "FAIL"), sub, "score", score, "tests", n)
PY
) || line="FAIL $sub: no results.json"
  echo "$line"
  case $line in FAIL*) fails=$((fails + 1)) ;; esac
done
exit $fails
