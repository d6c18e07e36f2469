#!/usr/bin/env bash
# demo.sh: `make demo`, the main job: every lab's reference solution, run on the emulator
# (or on the GPU with WARPLAB_BACKEND=gpu / auto) with its report, then graded by the lab's
# rubric with the feedback report a student gets. Exit status: 0 when every reference
# solution passes its lab.
set -uo pipefail
cd "$(dirname "$0")/../.."
warplab=${WARPLAB:-bin/warplab}
backend=${WARPLAB_BACKEND:-emu}
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if ! command -v nvcc >/dev/null 2>&1; then
  echo "demo: nvcc is not installed, and the labs' kernels are CUDA files (see docker/README.md)."
  echo "demo: meanwhile, the emulator on a committed PTX file:"
  exec "$warplab" emu tests/e2e/ptx/matrix_add.ptx --kernel matrix_add --grid 10,25 --block 32,8 \
    --arg f32buf:60000:rand:1 --arg f32buf:60000:rand:2 --arg f32buf:60000:zero --arg i32:300 --arg i32:200
fi
status=0
for lab in labs/[0-9]*/; do
  lab=$(basename "$lab")
  echo "=================================================================================="
  # the run's report (tests, measurements, charts), then the grade the rubric gives it
  "$warplab" run "${lab%%-*}" --solution --backend "$backend" --plain || status=1
  echo
  echo "---- graded as a submission: warplab grade ${lab%%-*} solutions/$lab"
  "$warplab" grade "${lab%%-*}" "solutions/$lab" --backend "$backend" --out results || status=1
  echo
done
if [ $status -eq 0 ]; then
  echo "Every reference solution passed. Your turn: edit labs/01-matrix-add/matrix_add.cu and run"
  echo "  bin/warplab run 01"
fi
exit $status
