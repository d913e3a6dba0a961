#!/usr/bin/env bash
# Soak: one engine process (`rdmalab-cli serve --stdio`) driven through many lessons and short measurements
# back to back, with its memory, file descriptors, threads and the kernel's RDMA resource counts recorded
# at the start, every --every runs and at the end. Fails (exit 1) when the end is not flat; prints a
# Markdown table either way. Needs an RDMA device: run it in the test bed, e.g.
#   tests/softroce/vm-run.sh --out $PWD/build --timeout 3000 -- tests/bench/soak.sh > build/soak.md
#
# A run is one of, in this order, repeating:
#   1 send lesson   op.start send, op.step until done (every step must succeed, the outcome must verify), op.reset
#   2 write lesson  the same with write
#   3 read lesson   the same with read
#   4 latency       bench.start of one latency kind (send_lat, write_lat, read_lat, atomic_lat, tcp_lat in
#                   turn), bench.wait; bench.done must say ok
#   5 bandwidth     the same with a bandwidth kind (write_bw, read_bw, send_bw, tcp_bw in turn)
# Lessons use 32, 1000 and 4096 bytes in turn; measurements 64 bytes (atomic_lat: 8).
#
# Flat means, comparing the end with the start (taken after `hello`, before anything touched the device):
#   - open file descriptors (/proc/PID/fd) and threads (/proc/PID/status Threads): equal;
#   - the kernel's RDMA resources (`rdma -j resource show`, summed over devices): pd, mr, cq, qp, cm_id,
#     ctx equal;
#   and comparing the end with the warm-up sample (the first one after the start, run --every):
#   - VmRSS and VmHWM: grown by at most --rss-bound KiB (default 1024). A leak of 1.2 KiB per run or more
#     over the 900 runs after warm-up exceeds it; one leaked lesson trace (tens of KiB) per run exceeds it
#     many times over. The warm-up excludes what the first runs allocate and then reuse (docs/soak.md: RSS
#     rises by ~1.8 MiB over the first 100 runs, then stays).
# Every run must also succeed: a failed step, an unverified outcome or a failed measurement stops the soak
# (exit 1) with the engine's error.
#
# Usage: soak.sh [--runs N] [--every N] [--iters N] [--warmup N] [--device NAME] [--rss-bound KIB] [--cli PATH]
#   --runs       runs in all                                                   (default 1000)
#   --every      a sample every N runs                                         (default 100)
#   --iters      measured iterations per measurement (bench.start "iters")     (default 200)
#   --warmup     warm-up iterations per measurement (bench.start "warmup")     (default 20)
#   --device     RDMA device for lessons and measurements  (default $RDMALAB_VERBS_DEV, else the engine's first)
#   --rss-bound  allowed VmRSS / VmHWM growth from the warm-up sample to the end, KiB (default 1024)
#   --cli        rdmalab-cli to use; also $RDMALAB_CLI; default build/dev/engine/rdmalab-cli
# Progress goes to stderr, the table to stdout.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

CLI=${RDMALAB_CLI:-build/dev/engine/rdmalab-cli}
RUNS=1000
EVERY=100
ITERS=200
WARMUP=20
DEVICE=${RDMALAB_VERBS_DEV:-}
RSS_BOUND=1024
usage() { sed -n '/^# Usage:/,/^# Progress/p' "$0" | sed 's/^# \{0,1\}//' >&2; }
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --every) EVERY=$2; shift 2 ;;
    --iters) ITERS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --device) DEVICE=$2; shift 2 ;;
    --rss-bound) RSS_BOUND=$2; shift 2 ;;
    --cli) CLI=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "soak.sh: unknown argument '$1'" >&2; usage; exit 2 ;;
  esac
done
for v in RUNS EVERY ITERS WARMUP RSS_BOUND; do
  [[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -gt 0 ] ||
    { echo "soak.sh: --${v,,} must be a positive integer (got '${!v}')" | tr _ - >&2; exit 2; }
done
[ -x "$CLI" ] || { echo "soak.sh: no rdmalab-cli at $CLI (build it: cmake --build --preset dev)" >&2; exit 2; }
command -v rdma > /dev/null || { echo "soak.sh: the rdma tool (iproute2) is missing" >&2; exit 2; }
rdma -j resource show 2>&1 | grep -q '"pd":' ||
  { echo "soak.sh: 'rdma -j resource show' lists no RDMA device: $(rdma -j resource show 2>&1)" >&2; exit 2; }

work=$(mktemp -d)
engine=""
pipeline=""
cleanup() {
  [ -n "$engine" ] && kill "$engine" 2> /dev/null
  [ -n "$pipeline" ] && kill "$pipeline" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
mkfifo "$work/in" "$work/out" "$work/res"

# The engine writes every trace event; two greps (which read in large blocks, unlike bash's `read` on a
# pipe, which reads one byte per system call) keep only results and bench.done and cut them down to the
# fields this script reads, one per line: "ok", "done" and "success" (data fields), then the line's
# "ids":{"id":N},"kind":K,"name":N, which ends a record. Keys are sorted in the engine's JSON, so the
# identifying fields close every event line.
"$CLI" serve --stdio < "$work/in" > "$work/out" 2> "$work/stderr" &
engine=$!
{ grep --line-buffered -E '"kind":"result"|"name":"bench\.done"' |
  grep --line-buffered -oE '"(ok|done|success)":(true|false)|"ids":\{"id":[0-9]+\},"kind":"[a-z_]+","name":"[a-z._]+"'; } \
  < "$work/out" > "$work/res" &
pipeline=$!
exec {tx}> "$work/in" {rx}< "$work/res"

next_id=0
R_OK="" R_DONE="" R_SUCCESS="" BENCH_DONE_OK=""
die() {
  echo "soak.sh: $*" >&2
  echo "soak.sh: engine stderr: $(tail -n 20 "$work/stderr")" >&2
  exit 1
}
# call JSON_FIELDS: sends {"id":N,JSON_FIELDS} and reads until its result; sets R_OK, R_DONE, R_SUCCESS
# (the last value of each in the result line) and BENCH_DONE_OK (ok of a bench.done seen on the way).
call() {
  next_id=$((next_id + 1))
  printf '{"id":%d,%s}\n' "$next_id" "$1" >&"$tx" || die "could not write to the engine (it exited?)"
  local ok="" done="" success="" frag
  while IFS= read -r -t 1800 -u "$rx" frag; do
    case $frag in
      '"ok":'*) ok=${frag#*:} ;;
      '"done":'*) done=${frag#*:} ;;
      '"success":'*) success=${frag#*:} ;;
      '"ids":{"id":'"$next_id"'},"kind":"result",'*)
        R_OK=$ok R_DONE=$done R_SUCCESS=$success
        return 0 ;;
      *'"name":"bench.done"') BENCH_DONE_OK=$ok; ok="" done="" success="" ;;
      *) ok="" done="" success="" ;;
    esac
  done
  die "no answer to {\"id\":$next_id,$1} (engine exited or 1800 s passed)"
}

device_field=""
[ -n "$DEVICE" ] && device_field=",\"device\":\"$DEVICE\""

lesson() { # OP SIZE RUN
  call "\"cmd\":\"op.start\",\"op\":\"$1\",\"size\":$2,\"message\":\"soak run $3\"$device_field"
  [ "$R_OK" = true ] || die "run $3: op.start $1 failed (run the lesson alone to see why: rdmalab-cli op $1)"
  local steps=0
  while :; do
    call '"cmd":"op.step"'
    steps=$((steps + 1))
    [ "$R_OK" = true ] || die "run $3: $1 lesson: step $steps failed (rdmalab-cli op $1 --size $2 shows the error)"
    [ "$R_DONE" = true ] && break
    [ $steps -lt 100 ] || die "run $3: $1 lesson not done after 100 steps"
  done
  [ "$R_SUCCESS" = true ] || die "run $3: $1 lesson ended without verifying"
  call '"cmd":"op.reset"'
  [ "$R_OK" = true ] || die "run $3: op.reset failed"
}

measure() { # KIND RUN
  BENCH_DONE_OK=""
  call "\"cmd\":\"bench.start\",\"kind\":\"$1\",\"size\":64,\"iters\":$ITERS,\"warmup\":$WARMUP$device_field"
  [ "$R_OK" = true ] || die "run $2: bench.start $1 failed"
  call '"cmd":"bench.wait"'
  [ "$BENCH_DONE_OK" = true ] ||
    die "run $2: measurement $1 did not end ok (rdmalab-cli bench $1 --size 64 --iters $ITERS shows the error)"
}

# sample LABEL: one row of figures. Forks only `rdma`: under the test bed's emulation every program
# started costs a fraction of a second.
RES_FIELDS=(pd mr cq qp cm_id ctx)
rows=()
declare -A first_sample=() warm_sample=() last_sample=()
sample() {
  local label=$1 key value rest res name total fdlist line brief
  local -A s=()
  [ -r "/proc/$engine/status" ] || die "engine process $engine is gone"
  while IFS=$' \t:' read -r key value rest; do # "VmRSS:	    4912 kB"
    case $key in
      VmRSS) s[rss]=$value ;;
      VmHWM) s[hwm]=$value ;;
      Threads) s[threads]=$value ;;
    esac
  done < "/proc/$engine/status"
  fdlist=("/proc/$engine/fd/"*)
  s[fds]=${#fdlist[@]}
  res=$(rdma -j resource show) || die "rdma -j resource show failed"
  line="| $label | $SECONDS | ${s[rss]} | ${s[hwm]} | ${s[threads]} | ${s[fds]}"
  brief="VmRSS ${s[rss]} KiB, VmHWM ${s[hwm]} KiB, threads ${s[threads]}, fds ${s[fds]}"
  for name in "${RES_FIELDS[@]}"; do # summed over the devices
    total=0 rest=$res
    while [[ $rest =~ \"$name\":([0-9]+)(.*) ]]; do
      total=$((total + BASH_REMATCH[1]))
      rest=${BASH_REMATCH[2]}
    done
    s[$name]=$total
    line+=" | $total"
    brief+=", $name $total"
  done
  rows+=("$line |")
  for name in "${!s[@]}"; do
    [ "$label" = start ] && first_sample[$name]=${s[$name]}
    last_sample[$name]=${s[$name]}
  done
  echo "soak.sh: $label: $SECONDS s, $brief" >&2
}

call '"cmd":"hello"'
[ "$R_OK" = true ] || die "the engine did not answer hello"
SECONDS=0
sample start
lat_kinds=(send_lat write_lat read_lat atomic_lat tcp_lat)
bw_kinds=(write_bw read_bw send_bw tcp_bw)
sizes=(32 1000 4096)
lessons=0 measurements=0
spent=(0 0 0 0 0) # microseconds spent in each of the five kinds of run
for ((run = 1; run <= RUNS; run++)); do
  cycle=$(((run - 1) / 5))
  t0=${EPOCHREALTIME/./}
  case $(((run - 1) % 5)) in
    0) lesson send "${sizes[cycle % 3]}" "$run" ;;
    1) lesson write "${sizes[cycle % 3]}" "$run" ;;
    2) lesson read "${sizes[cycle % 3]}" "$run" ;;
    3) measure "${lat_kinds[cycle % ${#lat_kinds[@]}]}" "$run" ;;
    4) measure "${bw_kinds[cycle % ${#bw_kinds[@]}]}" "$run" ;;
  esac
  type=$(((run - 1) % 5))
  t1=${EPOCHREALTIME/./}
  spent[type]=$((spent[type] + t1 - t0))
  if [ $type -le 2 ]; then lessons=$((lessons + 1)); else measurements=$((measurements + 1)); fi
  if [ $((run % EVERY)) -eq 0 ] || [ "$run" -eq "$RUNS" ]; then
    sample "$run"
    if [ "${#warm_sample[@]}" -eq 0 ]; then
      for name in "${!last_sample[@]}"; do warm_sample[$name]=${last_sample[$name]}; done
      warm_label=$run
    fi
  fi
done
elapsed=$SECONDS
call '"cmd":"quit"'
exec {tx}>&-
wait "$engine"
engine_rc=$?
engine=""

failures=()
for name in fds threads "${RES_FIELDS[@]}"; do
  [ "${last_sample[$name]}" -eq "${first_sample[$name]}" ] ||
    failures+=("$name: ${first_sample[$name]} at the start, ${last_sample[$name]} at the end")
done
for name in rss hwm; do
  growth=$((last_sample[$name] - warm_sample[$name]))
  [ "$growth" -le "$RSS_BOUND" ] ||
    failures+=("$name grew by $growth KiB from run $warm_label to the end (bound $RSS_BOUND KiB)")
done
[ "$engine_rc" -eq 0 ] || failures+=("the engine exited with status $engine_rc after quit")

device_name=${DEVICE:-the engine\'s first device}
echo "Soak of one \`rdmalab-cli serve --stdio\` process: $RUNS runs ($lessons lessons, $measurements measurements" \
  "of $ITERS iterations + $WARMUP warm-up), device $device_name, $(date -u '+%Y-%m-%d %H:%M UTC'), ${elapsed} s."
mean() { awk -v us="$1" -v n="$2" 'BEGIN {printf "%.2f", n ? us / n / 1e6 : 0}'; }
n5=$((RUNS / 5)) r5=$((RUNS % 5))
count() { echo $((n5 + ($1 < r5 ? 1 : 0))); }
echo "Mean seconds per run: send lesson $(mean "${spent[0]}" "$(count 0)"), write lesson" \
  "$(mean "${spent[1]}" "$(count 1)"), read lesson $(mean "${spent[2]}" "$(count 2)"), latency measurement" \
  "$(mean "${spent[3]}" "$(count 3)"), bandwidth measurement $(mean "${spent[4]}" "$(count 4)")."
echo
echo "| after run | s | VmRSS KiB | VmHWM KiB | threads | fds | pd | mr | cq | qp | cm_id | ctx |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
if [ ${#failures[@]} -eq 0 ]; then
  echo "Flat: fds, threads and RDMA resources equal to the start; VmRSS and VmHWM within $RSS_BOUND KiB" \
    "of the warm-up sample (run $warm_label): VmRSS $((last_sample[rss] - warm_sample[rss])) KiB," \
    "VmHWM $((last_sample[hwm] - warm_sample[hwm])) KiB."
  exit 0
fi
echo "NOT FLAT:"
printf -- '- %s\n' "${failures[@]}"
exit 1
