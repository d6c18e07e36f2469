#!/bin/sh
# occupancy.sh: lab 02's occupancy staircases, drawn from the occupancy calculator
# (`warplab occupancy`, the rules of CUDA's own) rather than from runs of a kernel, so they
# can vary what no sweep of the lab varies (handouts/02-occupancy.md, "What limits the warps
# on an SM"). Three charts of theoretical occupancy, the percentage of the SM's warp slots
# the resident blocks fill:
#   staircase_block      against threads per block (every whole number of warps), at
#                        32, 64 and 128 registers per thread, no shared memory;
#   staircase_registers  against registers per thread, 16 to 255, at blocks of 128 and
#                        256 threads, no shared memory;
#   staircase_smem       against dynamic shared memory per block, 0 to the SM's whole
#                        shared memory, at blocks of 128 and 256 threads, 32 registers.
# Every point is one answer of `warplab occupancy --json` and carries the resources that
# answer names as the limit. It prints the steps, writes each chart's result.json and
# charts.json into a folder of CHARTS (default results/02-occupancy/occupancy): block/,
# registers/, smem/, and draws them with `warplab charts` (NAME.png, .svg and .dat).
#
#   sh labs/02-occupancy/occupancy.sh [--arch P]      from the top of the repository
#
# --arch takes what `warplab occupancy --arch` takes (default: sm_90, the H200). WARPLAB
# names the warplab to run (default bin/warplab).
#
# Registers and shared memory are not sampled at a fixed step: occupancy never rises when a
# block asks for more of either, so wherever two answers differ the script asks again halfway
# between them, down to one register or 128 bytes, and where two agree everything between
# them agrees too. The points drawn are the two ends of every step of the staircase, where
# it is, whatever the profile's allocation units: the lines between them are the calculator's
# answers, not an interpolation.
set -eu
WARPLAB=${WARPLAB:-bin/warplab}
out=${CHARTS:-results/02-occupancy/occupancy}
arch=sm_90
while [ $# -gt 0 ]; do
  case $1 in
    --arch) [ $# -ge 2 ] || { echo "occupancy.sh: --arch wants a profile" >&2; exit 2; }
            arch=$2; shift 2 ;;
    *) echo "usage: sh labs/02-occupancy/occupancy.sh [--arch P]" >&2; exit 2 ;;
  esac
done
"$WARPLAB" occupancy --regs 32 --block 32 --arch "$arch" --json > /dev/null || {
  echo "occupancy.sh: $WARPLAB occupancy --arch $arch failed" >&2; exit 2; }
mkdir -p "$out/block" "$out/registers" "$out/smem"

WARPLAB=$WARPLAB ARCH=$arch OUT=$out awk '
# ---- asking the calculator ----

# Runs warplab occupancy with args and reads its JSON: the profile (the first time) and one
# record per answer (the "result", or each row of "table") into RB (block), RP (occupancy,
# %), RA (blocks per SM), RW (warps per SM), RL (the limits, "warps+registers") and RN (the
# note when none fits). Returns the number of records.
function ask(args,    cmd, line, n, inlim, w) {
  cmd = "\"$WARPLAB\" occupancy " args " --arch \"$ARCH\" --json"
  n = 0
  inlim = 0
  while ((cmd | getline line) > 0) {
    if (!got_profile && line ~ /"(id|name|max_threads_per_sm|warp_size|smem_per_sm|smem_reserved_per_block)":/)
      profile_field(line)
    if (line ~ /"block": /) {
      n++
      RB[n] = num(line); RP[n] = ""; RL[n] = ""; RN[n] = ""
    } else if (line ~ /"occupancy_pct": /) {
      RP[n] = num(line)
    } else if (line ~ /"active_blocks": /) {
      RA[n] = num(line)
    } else if (line ~ /"active_warps": /) {
      RW[n] = num(line)
    } else if (line ~ /"limited_by": \[\]/) {
      inlim = 0
    } else if (line ~ /"limited_by": \[/) {
      inlim = 1
    } else if (inlim && line ~ /\]/) {
      inlim = 0
    } else if (inlim) {
      w = line
      gsub(/[ ",]/, "", w)
      RL[n] = RL[n] (RL[n] == "" ? "" : "+") w
    } else if (line ~ /"note": "/) {
      RN[n] = line
      sub(/^[^:]*: "/, "", RN[n])
      sub(/",?$/, "", RN[n])
    }
  }
  close(cmd)
  if (n == 0 || RP[n] == "") {
    print "occupancy.sh: no answer from warplab occupancy " args > "/dev/stderr"
    exit 2
  }
  got_profile = 1
  return n
}

function num(line,    v) {
  v = line
  sub(/^[^:]*: */, "", v)
  sub(/,$/, "", v)
  return v + 0
}

function profile_field(line,    k, v) {
  k = line
  sub(/^ *"/, "", k)
  sub(/".*/, "", k)
  v = line
  sub(/^[^:]*: *"?/, "", v)
  sub(/"?,?$/, "", v)
  if (!(k in PROF))
    PROF[k] = v
}

# The answer at x of the sweep being drawn (SK: "regs" or "smem"; SB, SR, SS its block,
# registers, shared memory), kept in V[x] (occupancy), VA, VW, VL, VN.
function at(x,    args) {
  if (x in V)
    return V[x]
  if (SK == "regs")
    args = "--regs " x " --block " SB " --dyn-smem " SS
  else
    args = "--regs " SR " --block " SB " --dyn-smem " x
  ask(args)
  V[x] = RP[1]; VA[x] = RA[1]; VW[x] = RW[1]; VL[x] = RL[1]; VN[x] = RN[1]
  return V[x]
}

# Every step between lo and hi (both asked already), to the nearest step of x.
function refine(lo, hi, step,    mid) {
  if (V[lo] == V[hi] || hi - lo <= step)
    return
  mid = lo + int((hi - lo) / step / 2) * step
  at(mid)
  refine(lo, mid, step)
  refine(mid, hi, step)
}

# ---- writing the charts ----

# "warps+registers+shared_mem" in words: "warps, registers and shared memory".
function limits_words(l,    n, w, i, s) {
  gsub(/shared_mem/, "shared memory", l)
  n = split(l, w, "+")
  s = w[1]
  for (i = 2; i <= n; i++)
    s = s (i < n ? ", " : " and ") w[i]
  return s
}

# The limits along a sweep, in order, as its name says them: "warps, then registers". A tie
# (warps+registers) where one limit hands over to another is left out when a neighbour
# names part of it: the handover itself is not a third regime.
function story_add(l) {
  if (l != SL[ns])
    SL[++ns] = l
}

function story(    i, s, keep) {
  s = ""
  for (i = 1; i <= ns; i++) {
    keep = SL[i] !~ /\+/ || !(part_of(SL[i - 1], SL[i]) || part_of(SL[i + 1], SL[i]))
    if (keep)
      s = s (s == "" ? "" : ", then ") SL[i]
  }
  gsub(/shared_mem/, "shared memory", s)
  delete SL
  ns = 0
  return s
}

# Whether the limits a are some, not all, of the limits t.
function part_of(a, t,    n, w, i) {
  if (a == "" || a == t)
    return 0
  n = split(a, w, "+")
  for (i = 1; i <= n; i++)
    if (index("+" t "+", "+" w[i] "+") == 0)
      return 0
  return 1
}

# One point of the sweep being written, kept in PB until the sweep is named (flush).
function point(label, choices, pct, blocks, warps, lim,    i, n, parts, q) {
  n = split(lim, parts, "+")
  q = ""
  for (i = 1; i <= n; i++)
    q = q (i > 1 ? ", " : "") "\"" parts[i] "\""
  PB = PB sprintf("%s{\"sweep\": \"@SWEEP@\", \"label\": \"%s\", \"correct\": true,\n" \
         "  \"choices\": {%s}, \"limited_by\": [%s],\n" \
         "  \"metrics\": {\"sm__maximum_warps_per_active_cycle_pct\": {\"value\": %s, \"kind\": \"exact\"},\n" \
         "              \"warplab__active_blocks_per_sm\": {\"value\": %d, \"kind\": \"exact\"},\n" \
         "              \"warplab__active_warps_per_sm\": {\"value\": %d, \"kind\": \"exact\"}}}", \
         (PB == "" && !nflushed ? "" : ",\n"), label, choices, q, pct, blocks, warps)
}

# The points of the sweep, under its name, into file f.
function flush(f, name) {
  gsub(/@SWEEP@/, name, PB)
  printf "%s", PB > f
  PB = ""
  nflushed = 1
}

function head(f) {
  printf "{\"lab\": \"02-occupancy\",\n \"provenance\": {\"backend\": \"\", \"profile\": \"%s\",\n" \
         "  \"device\": \"warplab occupancy --arch %s (%s): the occupancy calculator, no kernel run\"},\n" \
         " \"points\": [\n", PROF["id"], ARCH, PROF["name"] > f
  nflushed = 0
}

function tail(f) {
  printf "]}\n" > f
  close(f)
}

# The chart definition: one line chart of theoretical occupancy, its sweeps in SW[1..n].
function chart(dir, name, title, x, xlog, xlabel, n,    f, i, s) {
  f = dir "/charts.json"
  s = ""
  for (i = 1; i <= n; i++)
    s = s (i > 1 ? ", " : "") "\"" SW[i] "\""
  printf "{\"charts\": [{\n  \"name\": \"%s\",\n  \"title\": \"%s\",\n  \"style\": \"lines\",\n" \
         "  \"sweeps\": [%s],\n  \"x\": \"%s\",\n  \"xlog\": %s,\n  \"xlabel\": \"%s\",\n" \
         "  \"y\": [\"sm__maximum_warps_per_active_cycle_pct\"],\n  \"labels\": [\"occupancy\"],\n" \
         "  \"ylabel\": \"theoretical occupancy, %% of the SM'"'"'s %d warp slots\"\n}]}\n", \
         name, title, s, x, xlog ? "true" : "false", xlabel, WARPS > f
  close(f)
}

# One sweep of registers (kind "regs": x from lo to hi registers per thread) or of shared
# memory ("smem": x bytes per block, in steps of step) at blocks of block threads, its other
# resource regs or smem: the two ends of each of its steps become points; prints the steps.
# Returns the limits along it, in words.
function sweep(kind, block, regs, smem, lo, hi, step, title,    m, x, i, O, prev, nxt, lab, start) {
  delete V; delete VA; delete VW; delete VL; delete VN
  SK = kind; SB = block; SR = regs; SS = smem
  at(lo)
  at(hi)
  refine(lo, hi, step)
  m = 0
  for (x = lo; x <= hi; x += step)
    if (x in V)
      O[++m] = x
  printf "\n%s\n", title
  for (i = 1; i <= m; i++) {
    x = O[i]
    prev = i > 1 ? V[O[i - 1]] : ""
    nxt = i < m ? V[O[i + 1]] : ""
    if (i > 1 && i < m && V[x] == prev && V[x] == nxt)
      continue
    if (i == 1 || V[x] != prev)
      start = x
    lab = kind == "regs" ? x " registers" : x " B"
    point(lab ": " limits_words(VL[x]), sprintf("\"BLOCK\": %d, \"REGS\": %d, \"SMEM\": %d", block,
          kind == "regs" ? x : regs, kind == "regs" ? smem : x), V[x], VA[x], VW[x], VL[x])
    story_add(VL[x])
    if (i == m || V[x] != nxt)
      print_step(kind, start, x)
  }
  return story()
}

# The step from a to b: its answer, and its limits at a where they differ from those at b.
function print_step(kind, a, b,    what, lim) {
  if (kind == "regs")
    what = a == b ? sprintf("%d registers", a) : sprintf("%d to %d registers", a, b)
  else
    what = a == b ? sprintf("%d B", a) : sprintf("%d to %d B", a, b)
  lim = VL[a] == VL[b] ? limits_words(VL[b]) : limits_words(VL[a]) " (at " b ": " limits_words(VL[b]) ")"
  if (VA[b] == 0)
    printf "  %-22s cannot run: %s\n", what, VN[b]
  else
    printf "  %-22s %2d block%s %2d warps: %6.2f%%, limited by %s\n", what, VA[b],
           VA[b] == 1 ? ", " : "s,", VW[b], V[b], lim
}

BEGIN {
  OUT = ENVIRON["OUT"]; ARCH = ENVIRON["ARCH"]
  nregs = split("32 64 128", regs_lines, " ")
  nblocks = split("128 256", block_lines, " ")
  smem_regs = 32

  # ---- 1. against threads per block: the table of the calculator, one per register count ----
  f = OUT "/block/result.json"
  for (k = 1; k <= nregs; k++) {
    n = ask("--regs " regs_lines[k] " --table")
    if (k == 1) {
      WARPS = PROF["max_threads_per_sm"] / PROF["warp_size"]
      head(f)
      printf "occupancy calculator, profile %s (%s): %d warp slots per SM\n", PROF["id"],
             PROF["name"], WARPS
    }
    for (i = 1; i <= n; i++) {
      TB[i] = RB[i]; TP[k, i] = RP[i]; TL[k, i] = RL[i]
      point("block " RB[i] ": " limits_words(RL[i]),
            sprintf("\"BLOCK\": %d, \"REGS\": %d, \"SMEM\": 0", RB[i], regs_lines[k]),
            RP[i], RA[i], RW[i], RL[i])
      story_add(RL[i])
    }
    SW[k] = regs_lines[k] " registers (" story() ")"
    flush(f, SW[k])
    rows = n
  }
  tail(f)
  printf "\ntheoretical occupancy against threads per block (and its limits), no shared memory\n"
  printf "%6s", "block"
  for (k = 1; k <= nregs; k++)
    printf "  %-30s", regs_lines[k] " registers/thread"
  printf "\n"
  for (i = 1; i <= rows; i++) {
    printf "%6d", TB[i]
    for (k = 1; k <= nregs; k++)
      printf "  %7s %-22s", TP[k, i] == 0 ? "none" : sprintf("%.2f%%", TP[k, i]), TL[k, i]
    printf "\n"
  }
  chart(OUT "/block", "staircase_block",
        "Theoretical occupancy against threads per block, at " regs_lines[1] ", " regs_lines[2] " and " regs_lines[3] " registers per thread",
        "BLOCK", 0, "threads per block (whole warps of " PROF["warp_size"] "; no shared memory)", nregs)

  # ---- 2. against registers per thread: 16 to 255, or to the most a thread may have ----
  f = OUT "/registers/result.json"
  head(f)
  hi = 255
  SK = "regs"; SB = block_lines[1]; SS = 0
  at(hi)
  if (VN[hi] ~ /than the [0-9]+ a thread can have/) {
    hi = VN[hi]
    sub(/.*than the /, "", hi)
    sub(/ a thread.*/, "", hi)
    hi += 0
  }
  for (k = 1; k <= nblocks; k++) {
    s = sweep("regs", block_lines[k], 0, 0, 16, hi, 1, "registers per thread, blocks of " block_lines[k] " threads, no shared memory")
    SW[k] = block_lines[k] " threads (" s ")"
    flush(f, SW[k])
  }
  tail(f)
  chart(OUT "/registers", "staircase_registers",
        "Theoretical occupancy against registers per thread, at blocks of " block_lines[1] " and " block_lines[2] " threads",
        "REGS", 0, "registers per thread (ptxas -v: Used N registers; no shared memory)", nblocks)

  # ---- 3. against shared memory per block: none to all the SM has, in 128-byte steps ----
  f = OUT "/smem/result.json"
  head(f)
  for (k = 1; k <= nblocks; k++) {
    s = sweep("smem", block_lines[k], smem_regs, 0, 0, PROF["smem_per_sm"] + 0, 128, "shared memory per block, blocks of " block_lines[k] " threads, " smem_regs " registers/thread")
    SW[k] = block_lines[k] " threads (" s ")"
    flush(f, SW[k])
  }
  tail(f)
  chart(OUT "/smem", "staircase_smem",
        "Theoretical occupancy against shared memory per block, at " smem_regs " registers per thread",
        "SMEM / 1024", 0, "shared memory per block, KB (static + dynamic; the SM adds " PROF["smem_reserved_per_block"] / 1024 " KB per block)", nblocks)
}'

echo
for c in block registers smem; do
  if "$WARPLAB" charts "$out/$c" > "$out/$c.charts" 2>&1; then
    sed 's/^/chart: /' "$out/$c.charts"
  else
    echo "(no chart drawn: the data is in $out/$c)"
    sed 's/^/  /' "$out/$c.charts"
  fi
  rm -f "$out/$c.charts"
done
