#!/usr/bin/env bash
# tui.sh: the feedback screen (grader/tui), driven as a person drives it: `warplab run` on a
# terminal, here the pane of a detached tmux session of a fixed size; keys go in with
# send-keys, the screen comes back with capture-pane. Each scenario waits for what a person
# waits for (a marker on the screen, with a time limit), then asserts on what the screen says.
#
#   solution   lab 01's reference solution on the emulator: the title, 6 of 6 tests, the
#              metrics with the reference's values, targets and marks, the chart with
#              "(yours)" and the path of a PNG that exists (or why there is none), the score
#              (with the answers.json beside the solution when there is one); Tab moves the focus,
#              ? shows the help, r reruns, p switches the profile (the run says A100), b the
#              backend (auto, gpu: without a GPU the reason is on the screen above the last
#              results, which stay; with one the next key stops the run, then emu); resizing to 80x24 folds the panes, 40x10 says it is too small, 120x40
#              brings the grid back; colours are on; q exits 0 with the terminal as it was
#   starter    the starter kernel (writes nothing): every test fails with the poison value,
#              no measurements, the hint, score 0; w watches the file, and saving the solution
#              over it reruns by itself: 6 of 6, and q exits 0 (the last run's status)
#   fault      a kernel without bounds checks: FAULT with the .cu line and its code
#   printf     a kernel that prints: its output under the tests, 40 lines of it, and how many
#              more lines there are
#   mono       TERM=xterm-mono (no colours): the same screen, no colour on it
#   no-color   NO_COLOR=1: no colour; SIGTERM restores the terminal and exits 130
#   ctrl-c     Ctrl-C while the first run runs (lab 03's, long enough to catch): exit 130,
#              terminal restored, the run stopped
#   layout     labs 06 and 07 at 160x50, 100x28 and 80x24, every pane focused in turn: no text
#              drawn over text (the screen's own overlap log), no raw metric names, rows
#              "label value value ok"
#   plain      --plain on a terminal: the text report
#   main-first lab 03's solution (its sweeps are most of its run): the tests, the main
#              configuration's metrics and its chart row are on the screen while the sweeps
#              run ("sweeps running" in the status line, no sweep row yet, no score); when
#              the run ends, the sweep rows and the score
# After every exit the shell's terminal settings (stty -g) must be what they were before.
#
#   WARPLAB=path/to/warplab bash tests/e2e/tui.sh      (make e2e and make asan run it)
#   TUI_WAIT=S   the longest wait for one screen, in seconds (default 40)
# Skips, with a message and exit 0, when tmux or nvcc is missing. Exit 1 when a check fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
warplab=${WARPLAB:-bin/warplab}
case "$warplab" in /*) ;; *) warplab="$root/$warplab" ;; esac
wait_s=${TUI_WAIT:-40}
poll_s=0.2                 # how often wait_for looks at the screen
shown=""                   # the screen wait_for last looked at
frozen=""                  # set: expect and expect_not check $shown, not a new capture

if ! command -v tmux >/dev/null 2>&1; then
  echo "tui: tmux is not installed: SKIPPING the feedback screen tests (docker/install-deps.sh installs it)"
  exit 0
fi
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if ! command -v nvcc >/dev/null 2>&1; then
  echo "tui: nvcc not found: SKIPPING the feedback screen tests (the labs are CUDA files)"
  exit 0
fi
if [ ! -x "$warplab" ]; then
  echo "tui: $warplab is not built (make)" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/warplab-tui-test-XXXXXX")
sock="warplab-tui-test-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
started=$SECONDS
failures=0
checks=0

# The pane runs this: terminal settings before, warplab (its pid recorded: `exec` keeps it),
# the exit status and the settings after, a line of text after the screen, then it idles so
# the pane stays readable. Like an interactive shell, it outlives a Ctrl-C meant for warplab
# (a trapped signal is back to its default in warplab).
cat > "$tmp/wrap.sh" <<'EOF'
dir=$1; shift
trap 'true' INT
stty -g > "$dir/stty.before"
sh -c 'echo $$ > "$0/pid"; exec "$@"' "$dir" "$@"
echo $? > "$dir/exit"
stty -g > "$dir/stty.after.part"           # whole before exits() can see it
mv "$dir/stty.after.part" "$dir/stty.after"
echo "after the screen: exit $(cat "$dir/exit")"
exec sleep 600
EOF

scenario=""
lab=01
# start NAME W H ENV... -- ARGS...: warplab run $lab ARGS in a new session NAME of W x H, with
# the screen's overlap check on (WARPLAB_TUI_OVERLAP_LOG: text drawn over text is logged).
start() {
  scenario=$1
  local w=$2 h=$3
  shift 3
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  mkdir -p "$tmp/$scenario"
  if ! tm new-session -d -s "$scenario" -x "$w" -y "$h" -c "$root" \
      env WARPLAB_TUI_OVERLAP_LOG="$tmp/$scenario/overlap" "${envs[@]}" \
      sh "$tmp/wrap.sh" "$tmp/$scenario" "$warplab" run "$lab" --results "$tmp/results-$scenario" "$@"; then
    echo "tui: FAIL [$scenario]: tmux could not start a session"
    exit 1
  fi
}

screen() { tm capture-pane -p -t "$scenario"; }

fail() {
  failures=$((failures + 1))
  echo "tui: FAIL [$scenario]: $*"
  echo "---- the screen ----"
  screen
  echo "--------------------"
}

# wait_for TEXT: until the screen shows TEXT (fixed string), or fail after $wait_s seconds,
# or 2 s after warplab has exited.
wait_for() {
  local until=$((SECONDS + wait_s)) gone=""
  checks=$((checks + 1))
  while [ $SECONDS -lt $until ]; do
    shown=$(screen)
    grep -qF -- "$1" <<<"$shown" && return 0
    if [ -f "$tmp/$scenario/exit" ]; then
      gone=${gone:-$SECONDS}
      if [ $((SECONDS - gone)) -gt 2 ]; then
        fail "warplab exited ($(cat "$tmp/$scenario/exit")) before the screen showed '$1'"
        return 1
      fi
    fi
    sleep "$poll_s"
  done
  fail "waited ${wait_s} s for '$1'"
  return 1
}

# wait_any TEXT...: until the screen shows one of them; prints the one it shows.
wait_any() {
  local until=$((SECONDS + wait_s)) s t
  checks=$((checks + 1))
  while [ $SECONDS -lt $until ]; do
    s=$(screen)
    for t in "$@"; do
      if grep -qF -- "$t" <<<"$s"; then
        echo "$t"
        return 0
      fi
    done
    sleep 0.2
  done
  fail "waited ${wait_s} s for any of: $*"
  return 1
}

# expect TEXT...: the screen shows each TEXT now.
expect() {
  local s t
  s=${frozen:+$shown}
  [ -n "$s" ] || s=$(screen)
  for t in "$@"; do
    checks=$((checks + 1))
    grep -qF -- "$t" <<<"$s" || fail "the screen does not show '$t'"
  done
}

# expect_not TEXT...: the screen shows none of them.
expect_not() {
  local s t
  s=${frozen:+$shown}
  [ -n "$s" ] || s=$(screen)
  for t in "$@"; do
    checks=$((checks + 1))
    grep -qF -- "$t" <<<"$s" && fail "the screen still shows '$t'"
  done
}

keys() { tm send-keys -t "$scenario" "$@"; }

# colour_on yes|no: whether the screen, with its attributes, sets a foreground or background
# colour (SGR 30-37, 40-47, 38;..., 48;...; 39 and 49, the defaults, are no colour).
colour_on() {
  checks=$((checks + 1))
  local n
  n=$(tm capture-pane -p -e -t "$scenario" | grep -cE $'\e\\[([34][0-7]|[34]8;)[0-9;]*m')
  if [ "$1" = yes ] && [ "$n" -eq 0 ]; then fail "no colour on a colour terminal"; fi
  if [ "$1" = no ] && [ "$n" -ne 0 ]; then fail "$n lines in colour with colour off"; fi
}

# exits STATUS: warplab has exited with STATUS, the shell's terminal settings are what they
# were, and text after the screen prints normally.
exits() {
  local d="$tmp/$scenario" until=$((SECONDS + wait_s))
  checks=$((checks + 3))
  while [ ! -f "$d/stty.after" ] && [ $SECONDS -lt $until ]; do sleep 0.1; done
  if [ ! -f "$d/stty.after" ]; then
    fail "warplab did not exit within ${wait_s} s"
    return
  fi
  local st
  st=$(cat "$d/exit")
  [ "$st" = "$1" ] || fail "warplab exited $st, expected $1"
  cmp -s "$d/stty.before" "$d/stty.after" || fail "the terminal settings were not restored: $(cat "$d/stty.before") then $(cat "$d/stty.after")"
  wait_for "after the screen: exit $1" >/dev/null
  screen | grep -q '^after the screen: exit' || fail "the text after the screen does not start its own line"
}

# no_overlap: the screen has drawn no text over other text so far (grader/tui logs each
# overlap to WARPLAB_TUI_OVERLAP_LOG), and no line of it is wider than the terminal.
no_overlap() {
  checks=$((checks + 2))
  if [ -s "$tmp/$scenario/overlap" ]; then
    fail "text drawn over text: $(head -5 "$tmp/$scenario/overlap")"
    : > "$tmp/$scenario/overlap"
  fi
  local w
  w=$(tm display -p -t "$scenario" '#{pane_width}')
  [ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le "$w" ] ||
    fail "a line wider than the terminal ($w)"
}

# metric_rows: every row of the metrics table on the screen is "label value value ..." with
# the label a short one (no Nsight Compute name running into the values).
metric_rows() {
  checks=$((checks + 1))
  local bad
  bad=$(screen | grep -E '(smsp|l1tex|dram|sm|warplab|launch|gpu)__' | head -3)
  [ -z "$bad" ] || fail "a raw metric name on the screen: $bad"
}

ran() { no_overlap; echo "tui: [$scenario] ok ($((SECONDS - started)) s so far)"; }

# ---- solution: everything on the screen, and every key ----
# the solution scores every point when it hands in the answers to the handout's questions
# (answers.json beside it), else all but the questions' 10
score="Score 90.0 / 100"
[ -f solutions/01-matrix-add/answers.json ] && score="Score 100.0 / 100"
start solution 120 40 TERM=xterm-256color -- --solution --backend emu --no-ncu
if wait_for "run 1 done"; then
  wait_for "$score"
  expect "Matrix addition: block shapes" "Tests: 6 of 6 passed" "nx=33 ny=17" \
         "Metrics: yours, reference, target" "reference" "sect/req" "at most 4" \
         "at least 90" "within 1.2x of the reference" "(yours)" "Chart 1 of 4" "|####" \
         "Hints" "correctness: nx=1 ny=1"
  screen | grep -qE 'sect/req +4 +4 +ok +at most 4' || fail "no 'sect/req 4 4 ok at most 4' row"
  if command -v gnuplot >/dev/null 2>&1; then
    expect "PNG: " "time.png"
    checks=$((checks + 1))
    ls "$tmp"/results-solution/01-matrix-add/*-solution/time.png >/dev/null 2>&1 || fail "no time.png was drawn"
  else
    expect "No PNG: gnuplot is not installed"
  fi
  colour_on yes
  expect "> Tests"
  keys Tab
  wait_for "> Metrics"
  expect_not "> Tests"
  keys ']'
  wait_for "Chart 2 of 4"
  expect "Global load sectors per request"
  keys '?'
  wait_for "watch: run again when the kernel is saved"
  no_overlap
  keys x
  sleep 0.3
  expect_not "watch: run again"
  keys r
  wait_for "run 2 done"
  keys p
  wait_for "run 3 done"
  expect "p profile a100" "A100"
  # b: auto, then gpu (without a GPU that run does not happen and the screen says why; with
  # one, its long runs are stopped by the next key), then emu again. Run 4 is let finish: a
  # run stopped after its main configuration came shows that, with no score yet, and the
  # last results the failed run 5 leaves on the screen would be those
  keys b
  wait_for "b backend auto"
  wait_for "run 4 done"
  keys b
  wait_for "b backend gpu"
  if [ "$(wait_any "run 5: running" "run 5 done" "run 5 failed")" = "run 5 failed" ]; then
    # no GPU here: the error, and under it the last results, kept
    expect "The run did not happen" "--backend gpu" "Tests: 6 of 6 passed" "$score" "sect/req"
    expect_not "b backend - (" "No result yet"
  fi
  keys b
  wait_for "b backend emu"
  wait_for "run 6 done"
  tm resize-window -t "$scenario" -x 80 -y 24
  wait_for "$score"
  expect "Tests: 6 of 6 passed" "Chart 2 of 4" "> Metrics" "sect/req"
  checks=$((checks + 1))
  [ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 80 ] || fail "wider than 80 columns"
  # the status line holds the whole message beside the keys at 80 columns
  checks=$((checks + 1))
  screen | tail -1 | grep -qE 'run 6 done in [0-9.]+ s: tests 6/6, score [0-9.]+/100 +r rerun  \? help  q quit' ||
    fail "the status line is cut: $(screen | tail -1)"
  tm resize-window -t "$scenario" -x 40 -y 10
  wait_for "too small"
  tm resize-window -t "$scenario" -x 120 -y 40
  wait_for "(yours)"
  expect "Tests: 6 of 6 passed" "$score"
  expect_not "too small"
  keys q
  exits 0
  expect_not "Tests: 6 of 6 passed"   # the screen is gone, the shell's text is back
fi
ran

# ---- starter: failures, hints, score 0; watch mode reruns on a save ----
mkdir -p "$tmp/kernel"
cp labs/01-matrix-add/matrix_add.cu "$tmp/kernel/matrix_add.cu"
start starter 120 40 TERM=xterm-256color -- --kernel-file "$tmp/kernel/matrix_add.cu" --backend emu
if wait_for "run 1 done"; then
  wait_for "Score 0.0 / 100"
  expect "Tests: 0 of 6 passed" "FAIL" "nx=1 ny=1" "never wrote" "No measurements" \
         "never written" "MISS"
  seed1=$(screen | grep -o 'seed [0-9]*' | head -1)
  [ -n "$seed1" ] || fail "row 2 names no seed"
  keys w
  wait_for "w watch on"
  sleep 0.5
  cp solutions/01-matrix-add/matrix_add.cu "$tmp/kernel/matrix_add.cu"
  touch "$tmp/kernel/matrix_add.cu"
  wait_for "run 2 done"
  wait_for "Score 90.0 / 100"
  expect "Tests: 6 of 6 passed"
  expect "$seed1"           # one seed a session: the save ran on the first run's inputs
  keys q
  exits 0
fi
ran

# ---- fault: the line of the .cu file, with its code ----
fault=tests/e2e/lab01/no_bounds.cu
line=$(grep -n NO-BOUNDS "$fault" | head -1 | cut -d: -f1)
start fault 120 40 TERM=xterm-256color -- --kernel-file "$fault" --backend emu --quick
if wait_for "run 1 done"; then
  expect "FAULT" "out of bounds" "no_bounds.cu:$line | "
  keys q
  exits 1
fi
ran

# ---- printf: what the kernel printed, under the tests, bounded, with a note when cut ----
# lab 01's solution printing 8 lines a test (x < 8 of row 0; 1 in the 1-wide test): more
# than the 40 lines the pane shows, so the note says how many more there are
mkdir -p "$tmp/pf"
{ echo '#include <cstdio>'; sed 's|^    c\[i\] = a\[i\] + b\[i\];|&\n    if (y == 0 \&\& x < 8) printf("PF x=%d of %d\\n", x, nx);|' \
    solutions/01-matrix-add/matrix_add.cu; } > "$tmp/pf/matrix_add.cu"
start printf 120 100 TERM=xterm-256color -- --kernel-file "$tmp/pf/matrix_add.cu" --backend emu --quick
if wait_for "run 1 done"; then
  expect "Printed by the kernel (printf)" "[nx=1 ny=1]" "PF x=0 of 1" "PF x=7 of 33"
  for _ in $(seq 30); do keys Down; done
  wait_for "4 more lines not shown here"
  expect "PF x=3 of 1024"
  expect_not "PF x=4 of 1024"
  keys q
  exits 0
fi
ran

# ---- mono: a terminal without colours ----
start mono 120 40 TERM=xterm-mono -- --solution --backend emu --quick
if wait_for "run 1 done"; then
  expect "Tests: 6 of 6 passed" "sect/req" "ok"
  colour_on no
  keys q
  exits 0
fi
ran

# ---- no-color: NO_COLOR, then SIGTERM ----
start no-color 120 40 TERM=xterm-256color NO_COLOR=1 -- --solution --backend emu --quick
if wait_for "run 1 done"; then
  expect "Tests: 6 of 6 passed"
  colour_on no
  kill -TERM "$(cat "$tmp/$scenario/pid")"
  exits 130
fi
ran

# ---- ctrl-c: during the first run ----
lab=03                                 # a run long enough to be caught running (lab 01's
start ctrl-c 120 40 TERM=xterm-256color -- --solution --backend emu   # takes 0.6 s)
lab=01
if wait_for "running your kernel"; then
  keys C-c
  exits 130
  checks=$((checks + 1))
  sleep 0.3
  if pgrep -f -- "--json.*$tmp/results-$scenario" >/dev/null; then
    fail "the run was not stopped: $(pgrep -af -- "--json.*$tmp/results-$scenario")"
  fi
fi
ran

# ---- layout: labs 06 and 07 (long metric names, graded targets) at 80x24, 100x28, 160x50:
# no text over text in any pane, the metrics rows with short labels and their marks ----
for lab in 06 07; do
  start "layout-$lab" 160 50 TERM=xterm-256color -- --solution --backend emu --quick
  if wait_for "run 1 done"; then
    wait_for "Score "
    for size in 160x50 100x28 80x24; do
      tm resize-window -t "$scenario" -x "${size%x*}" -y "${size#*x}"
      sleep 0.5
      keys C-l
      sleep 0.3
      for pane in tests metrics chart hints; do
        no_overlap
        metric_rows
        keys Tab
        sleep 0.3
      done
      expect "Score "
    done
    # the graded metrics' marks are on the screen, beside their values
    keys Tab
    sleep 0.3
    checks=$((checks + 1))
    screen | grep -qE '[a-z][a-z./%]* +[0-9.]+[kMGT]? +[0-9.]+[kMGT]? +(ok|MISS|part)( |$)' ||
      fail "no metric row 'label value value ok' at 80x24"
    keys q
    exits 0
  fi
  ran
done
lab=01

# ---- main-first: the main configuration's results before the sweeps' ----
lab=03
start main-first 160 50 TERM=xterm-256color -- --solution --backend emu --no-ncu
wait_first=$wait_s
wait_s=$((wait_s * 3))                 # lab 03's whole run: tens of seconds on 2 busy cores
# its sweeps may run for half a second only: a look each 20 ms, and the checks of that screen
# on the very screen that showed them running (frozen: wait_for's $shown), not a later one
poll_s=0.02
if wait_for "sweeps running"; then
  poll_s=0.2
  frozen=1
  # the first screen with the main configuration: its tests and metrics, its row of chart 1
  # (over the sweep "warps, UNROLL 1": 1x64 ... 1x4), and nothing of the sweeps yet
  expect "Tests: 6 of 6 passed" "n=8650752 blocks=2112 (main)" "Metrics: yours, reference" \
         "sect/req" "Chart 1 of 6" "8x8 (yours)" "the sweeps are still running" \
         "Scoring after the reference solution's run"
  expect_not "1x64" "1x4 " "run 1 done" "Score 100"
  frozen=
  wait_for "run 1 done"
  expect "8x8 (yours)" "1x64" "1x4 " "Score 100.0 / 100" "Tests: 6 of 6 passed"
  expect_not "sweeps running" "the sweeps are still running"
  keys q
  exits 0
fi
wait_s=$wait_first
lab=01
ran

# ---- plain: the text report on a terminal ----
start plain 120 40 TERM=xterm-256color -- --solution --backend emu --quick --plain
exits 0
# the end of the report is on the screen: the score and the folder
expect "${score/ \/ / of }" "Results in"
expect_not "Metrics: yours"
ran

echo "tui: $checks checks, $failures failed, in $((SECONDS - started)) s"
[ "$failures" -eq 0 ]
