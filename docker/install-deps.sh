#!/usr/bin/env bash
# install-deps.sh: install what warplab's build and tests need on a Debian or Ubuntu machine.
#
# Idempotent: packages already installed are left alone, and `apt-get update` runs only
# when something is missing. Used by `make check` / `make demo` (through `make setup`,
# with --if-missing), by CI and by docker/Dockerfile.
#
#   bash docker/install-deps.sh                 install whatever is missing, report on CUDA
#   bash docker/install-deps.sh --if-missing    check first; when all is there, say so in one line
#   bash docker/install-deps.sh --require-cuda  also fail (exit 1) if nvcc/ptxas are missing
#   bash docker/install-deps.sh --slurm         also Slurm and munge, for `warplab batch --slurm`
#                                               and its test (tests/slurm/run.sh, make slurm-check)
#
# The CUDA Toolkit is never installed from the distribution (its packages lag behind and
# clash with NVIDIA's); without it warplab still runs .ptx files in its emulator.
#
# nvdisasm (how warplab counts the machine instructions a GPU executes, harness/toolchain/tc_sass.c):
# where the toolkit has none (its pip-installed or minimal forms), the PyPI package
# nvidia-cuda-nvdisasm is unpacked with pip into $WARPLAB_TOOLS_DIR (default
# /opt/warplab-tools) and linked into $WARPLAB_TOOLS_BIN (default /usr/local/bin); pip comes
# from the python3-pip package when missing. Best effort: without it warplab counts PTX
# instructions and says so.
set -euo pipefail

if_missing=0
require_cuda=0
slurm=0
for arg in "$@"; do
  case "$arg" in
    --if-missing) if_missing=1 ;;
    --require-cuda) require_cuda=1 ;;
    --slurm) slurm=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "install-deps: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

# The Debian/Ubuntu packages the build, the tests and the feedback screens need.
packages=(build-essential pkg-config libncurses-dev gnuplot-nox check libsubunit-dev
          libjansson-dev tmux ca-certificates)
# With --slurm: a Slurm controller, node daemon and client, and munge for their authentication
# (only on request: a class graded on one machine needs none of it).
slurm_packages=(slurmctld slurmd slurm-client munge)
[ "$slurm" = 1 ] && packages+=("${slurm_packages[@]}")

say() { echo "install-deps: $*"; }

# Where nvcc and ptxas are, if anywhere: PATH first, then the usual CUDA folder.
cuda_bin=""
find_cuda() {
  local dir
  if command -v nvcc >/dev/null 2>&1 && command -v ptxas >/dev/null 2>&1; then
    cuda_bin=$(dirname "$(command -v nvcc)")
    return 0
  fi
  for dir in "${CUDA_HOME:-/usr/local/cuda}/bin" /usr/local/cuda/bin; do
    if [ -x "$dir/nvcc" ] && [ -x "$dir/ptxas" ]; then
      cuda_bin=$dir
      return 0
    fi
  done
  return 1
}

# Nonzero when any tool or library the build needs is missing.
build_deps_missing() {
  local c
  command -v pkg-config >/dev/null 2>&1 || return 0
  pkg-config --exists check jansson ncurses 2>/dev/null || return 0
  for c in gcc make gnuplot tmux; do
    command -v "$c" >/dev/null 2>&1 || return 0
  done
  if [ "$slurm" = 1 ]; then
    for c in slurmctld slurmd sbatch squeue sinfo munged; do
      PATH="$PATH:/usr/sbin:/sbin" command -v "$c" >/dev/null 2>&1 || return 0
    done
  fi
  return 1
}

cuda_report() {
  if find_cuda; then
    case ":$PATH:" in
      *":$cuda_bin:"*) say "CUDA Toolkit: $cuda_bin/nvcc" ;;
      *) say "CUDA Toolkit: $cuda_bin/nvcc (not on PATH: add it with export PATH=\"$cuda_bin:\$PATH\")" ;;
    esac
    return 0
  fi
  cat >&2 <<EOF
install-deps: WARNING: the CUDA Toolkit is not installed (nvcc and ptxas were not found on
  PATH, in \${CUDA_HOME:-/usr/local/cuda}/bin or in /usr/local/cuda/bin).
  warplab needs nvcc to turn a .cu file into PTX; without it the emulator still runs .ptx
  files, and the end-to-end tests that compile .cu files are skipped.
  To get it: install the toolkit from NVIDIA's CUDA repository for your distribution
  (the cuda-toolkit package; this script does not take it from the distribution), or use
  the Docker image in docker/ (see docker/README.md), which has it.
EOF
  [ "$require_cuda" = 1 ] && return 1
  return 0
}

# Nonzero when nvdisasm is found (PATH, the toolkit's folder).
have_nvdisasm() {
  command -v nvdisasm >/dev/null 2>&1 && return 0
  find_cuda && [ -x "$cuda_bin/nvdisasm" ] && return 0
  [ -x /usr/local/cuda/bin/nvdisasm ]
}

# Install nvdisasm from PyPI when the toolkit is here without it (see the top of this file).
# Never fails the script: says what went wrong instead.
install_nvdisasm() {
  have_nvdisasm && return 0
  find_cuda || return 0          # no ptxas, no cubin to disassemble
  local dir=${WARPLAB_TOOLS_DIR:-/opt/warplab-tools} bin=${WARPLAB_TOOLS_BIN:-/usr/local/bin}
  local run=()
  if [ "$(id -u)" -ne 0 ] && { ! mkdir -p "$dir" 2>/dev/null || [ ! -w "$dir" ] || [ ! -w "$bin" ]; }; then
    if command -v sudo >/dev/null 2>&1; then
      run=(sudo)
    else
      say "WARNING: nvdisasm not installed (not root, no sudo; set WARPLAB_TOOLS_DIR and WARPLAB_TOOLS_BIN to folders you may write): instruction counts will be PTX-level"
      return 0
    fi
  fi
  if ! python3 -m pip --version >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      say "installing: python3-pip (for nvdisasm)"
      ${run[@]+"${run[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null || true
      ${run[@]+"${run[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-pip >/dev/null || true
    fi
  fi
  if ! python3 -m pip --version >/dev/null 2>&1; then
    say "WARNING: nvdisasm not installed (python3 -m pip is missing): instruction counts will be PTX-level"
    return 0
  fi
  say "installing: nvdisasm (PyPI nvidia-cuda-nvdisasm) into $dir"
  local pip=(python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location
             --timeout 30 --retries 1
             --upgrade --target "$dir" nvidia-cuda-nvdisasm)
  # --target leaves the system's packages alone; an externally managed Python (PEP 668) may
  # still want --break-system-packages said
  if ! ${run[@]+"${run[@]}"} "${pip[@]}" 2>/dev/null &&
     ! ${run[@]+"${run[@]}"} "${pip[@]}" --break-system-packages; then
    say "WARNING: pip could not install nvidia-cuda-nvdisasm: instruction counts will be PTX-level"
    return 0
  fi
  local found
  found=$(find "$dir" -path '*/bin/nvdisasm' -type f 2>/dev/null | head -n 1)
  if [ -z "$found" ]; then
    say "WARNING: nvidia-cuda-nvdisasm holds no bin/nvdisasm: instruction counts will be PTX-level"
    return 0
  fi
  ${run[@]+"${run[@]}"} mkdir -p "$bin"
  ${run[@]+"${run[@]}"} ln -sf "$found" "$bin/nvdisasm"
  say "nvdisasm: $bin/nvdisasm -> $found"
}

if [ "$if_missing" = 1 ] && ! build_deps_missing; then
  install_nvdisasm
  if find_cuda; then
    say "all build and test dependencies are present (CUDA: $cuda_bin/nvcc)"
  else
    say "all build and test dependencies are present; CUDA Toolkit NOT found: .cu tests will be skipped (run 'bash docker/install-deps.sh' for details)"
    [ "$require_cuda" = 1 ] && exit 1
  fi
  exit 0
fi

# Which of the packages are not installed yet.
missing=()
for p in "${packages[@]}"; do
  if [ "$p" = gnuplot-nox ] && command -v gnuplot >/dev/null 2>&1; then
    continue  # any gnuplot build will do
  fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  say "all packages already installed"
else
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: apt-get not found: this script knows Debian and Ubuntu only." >&2
    echo "install-deps: install by hand: gcc make pkg-config ncurses jansson check subunit gnuplot tmux" >&2
    exit 1
  fi
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "install-deps: not root and no sudo: run as root to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  say "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -q
  ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if build_deps_missing; then
  echo "install-deps: something is still missing after the install (pkg-config check jansson ncurses, gcc make gnuplot tmux$([ "$slurm" = 1 ] && echo ', slurmctld slurmd sbatch munged'))" >&2
  exit 1
fi
cuda_report
install_nvdisasm
