#!/usr/bin/env bash
# Side-by-side: rdmalab's measurements next to the reference tools, same device, same sizes, same run.
# Needs an RDMA device: run it in the test bed, e.g.
#   tests/softroce/vm-run.sh --out $PWD/build -- tests/bench/compare.sh > build/compare.md
#
# Every pair (reference tool, rdmalab) runs ROUNDS times, alternating: reference, rdmalab, reference,
# rdmalab, ... so that slow phases of the machine hit both sides alike. The table gives the median of
# each side over the rounds, the spread (min..max of the rounds), the ratio of the medians and whether
# the goal is met:
#   latency (RDMA and TCP)  rdmalab median within 10 % of the reference median   (0.90 <= ratio <= 1.10)
#   RDMA bandwidth          rdmalab median at least 90 % of the reference median (ratio >= 0.90)
#   TCP bandwidth           rdmalab median within 10 % of the reference median   (0.90 <= ratio <= 1.10)
#
# Both sides are pinned alike: the client / measuring side (perftest client, sockperf pp, iperf3 -c,
# rdmalab's endpoint A) to CPU A and the server / peer (perftest server, sockperf sr, iperf3 -s,
# rdmalab's endpoint B) to CPU B. Unpinned, the scheduler sometimes puts both ends on one CPU and
# sometimes on two, and in the emulated test bed that alone changes TCP figures by 2x
# (docs/bench-results.md).
#
# Usage: compare.sh [ITERS] [--iters N] [--rounds N] [--sizes "2 65536"] [--tcp-seconds S]
#                   [--only "send_lat tcp_bw ..."] [--cpus "A B" | --no-pin] [--warmup N] [--cli PATH] [--raw]
#   ITERS / --iters  iterations per run for perftest (-n) and rdmalab (--iters)          (default 1000)
#   --rounds         alternating rounds per pair                                         (default 5)
#   --sizes          message sizes in bytes                                              (default "2 65536")
#   --tcp-seconds    duration of one TCP run: sockperf -t, iperf3 -t, rdmalab --seconds  (default 3)
#   --only           measure only these rdmalab kinds (write_lat send_lat read_lat write_bw tcp_lat tcp_bw)
#   --cpus           CPU of the measuring side and of the peer                            (default "0 1")
#   --no-pin         let the scheduler place both sides (not comparable: see above)
#   --warmup         rdmalab's warm-up iterations; perftest's latency tests have none    (default 0)
#   --cli            rdmalab-cli to use; also $RDMALAB_CLI; default build/dev/engine/rdmalab-cli
#   --raw            also print every round's figures
#   --self-check     run the reference tool in both columns (A/A): how far the test bed lets one tool
#                    drift from itself under the same protocol, i.e. what a miss can and cannot show
# Environment: RDMALAB_CLI, RDMALAB_BENCH_DEV (device; default: the first), RDMALAB_BENCH_GID (GID index).
set -uo pipefail
cd "$(dirname "$0")/../.."

CLI=${RDMALAB_CLI:-build/dev/engine/rdmalab-cli}
PYTHON=/usr/bin/python3 # the system's, not a shell shim earlier in PATH (see "captured first" below)
ITERS=1000
ROUNDS=5
SIZES="2 65536"
TCP_SECONDS=3
ONLY="write_lat send_lat read_lat write_bw tcp_lat tcp_bw"
RAW=0
SELF=0
CPUS="0 1"
WARMUP=0
while [ $# -gt 0 ]; do
  case $1 in
    --iters) ITERS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --tcp-seconds) TCP_SECONDS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --cli) CLI=$2; shift 2 ;;
    --raw) RAW=1; shift ;;
    --self-check) SELF=1; shift ;;
    --cpus) CPUS=$2; shift 2 ;;
    --no-pin) CPUS=""; shift ;;
    --warmup) WARMUP=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) ITERS=$1; shift ;;
    *) echo "compare.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ -x "$CLI" ] || { echo "compare.sh: no rdmalab-cli at '$CLI' (pass --cli PATH or set RDMALAB_CLI)" >&2; exit 2; }

DEVJSON=$("$CLI" devices --json) || { echo "compare.sh: '$CLI devices' failed" >&2; exit 2; }
DEV=${RDMALAB_BENCH_DEV:-$("$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["name"])' <<<"$DEVJSON")}
GIDX=${RDMALAB_BENCH_GID:-$("$PYTHON" -c '
import json,sys
dev=sys.argv[1]
d=[x for x in json.load(sys.stdin)["devices"] if x["name"]==dev][0]
p=d["ports"][0]
g=[x for x in p["gids"] if x["type"]=="RoCE v2" and x["gid"].startswith("::ffff:")] or [x for x in p["gids"] if x["type"]=="RoCE v2"]
print(g[0]["index"])' "$DEV" <<<"$DEVJSON")}
if [ -n "$CPUS" ]; then
  read -r CPU_A CPU_B <<<"$CPUS"
  [[ $CPU_A =~ ^[0-9]+$ && $CPU_B =~ ^[0-9]+$ ]] || { echo "compare.sh: --cpus needs two CPU numbers, e.g. \"0 1\"" >&2; exit 2; }
  ON_A=(taskset -c "$CPU_A")
  ON_B=(taskset -c "$CPU_B")
  OUR_PIN=(--cpus "$CPU_A,$CPU_B")
  PLACEMENT="client / measuring side on CPU $CPU_A, server / peer on CPU $CPU_B (taskset; rdmalab --cpus $CPU_A,$CPU_B)"
else
  ON_A=()
  ON_B=()
  OUR_PIN=()
  PLACEMENT="not pinned: the scheduler placed both sides"
fi
PORT=18515
SPORT=11111
IPORT=5201

wants() { [[ " $ONLY " == *" $1 "* ]]; }

# perftest: server in the background, client in the foreground; prints the client's data line.
# Every tool's output is captured first and parsed after the tool has exited: nothing else runs while
# a tool measures. A parser in the same pipeline starts at the same time as the tool, and python3 (here
# a pyenv shell shim that runs several bash processes before python itself) took enough CPU from the
# measuring threads to make rdmalab's tcp_lat 1.3x and its 64 KiB latencies 1.2x slower than measured
# alone (docs/bench-results.md, "The parser ran during the measurement").
perftest() { # tool size extra-args...
  local tool=$1 size=$2 out; shift 2
  timeout 300 "${ON_B[@]}" "$tool" -d "$DEV" -x "$GIDX" -s "$size" -p $PORT "$@" >/dev/null 2>&1 &
  local server=$!
  sleep 2
  out=$(timeout 300 "${ON_A[@]}" "$tool" -d "$DEV" -x "$GIDX" -s "$size" -p $PORT "$@" 127.0.0.1 2>/dev/null)
  wait $server 2>/dev/null
  PORT=$((PORT + 1))
  awk -v s="$size" '$1==s {print; exit}' <<<"$out"
}
ours() { # kind size [extra args] -> json
  local kind=$1 size=$2; shift 2
  timeout 300 "$CLI" bench "$kind" --size "$size" --warmup "$WARMUP" "${OUR_PIN[@]}" "$@" --json 2>/dev/null
}
jfield() { "$PYTHON" -c "import json,sys; d=json.load(sys.stdin); print($1)" 2>/dev/null; }

# One round of each reference measurement; each prints one number or nothing (failed).
ref_lat() { perftest "ib_$1" "$2" -n "$ITERS" | awk '{print $5}'; } # t_typical[usec]
ref_bw() { # BW average [MB/sec] is 2^20 bytes/s: convert to 10^6 bytes/s
  perftest ib_write_bw "$1" -n "$ITERS" | awk '$4 != "" {printf "%.4f\n", $4 * 1.048576}'
}
ref_sockperf() { # sockperf ping-pong, TCP: percentile 50 of the half round trip (usec)
  "${ON_B[@]}" sockperf sr --tcp -i 127.0.0.1 -p $SPORT >/dev/null 2>&1 &
  local srv=$!
  sleep 2
  local out
  out=$(timeout 120 "${ON_A[@]}" sockperf pp --tcp -i 127.0.0.1 -p $SPORT -m "$1" -t "$TCP_SECONDS" 2>/dev/null)
  kill $srv 2>/dev/null
  wait $srv 2>/dev/null
  SPORT=$((SPORT + 1))
  awk '/percentile 50.000/ {print $NF}' <<<"$out"
}
ref_iperf3() { # iperf3 receiver, 10^6 bytes/s
  "${ON_B[@]}" iperf3 -s -1 -p $IPORT >/dev/null 2>&1 &
  local srv=$!
  sleep 2
  local out
  out=$(timeout 120 "${ON_A[@]}" iperf3 -c 127.0.0.1 -p $IPORT -l "$1" -t "$TCP_SECONDS" -J 2>/dev/null)
  wait $srv 2>/dev/null
  IPORT=$((IPORT + 1))
  "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/8e6)' \
    <<<"$out" 2>/dev/null
}
# One round of each rdmalab measurement.
our_lat() { local j; j=$(ours "$1" "$2" --iters "$ITERS") && jfield 'd["lat_us"]["p50"]' <<<"$j"; }
our_bw() { local j; j=$(ours "$1" "$2" --iters "$ITERS") && jfield 'd["bw_MBps"]' <<<"$j"; }
our_tcp_lat() { local j; j=$(ours tcp_lat "$1" --seconds "$TCP_SECONDS") && jfield 'd["lat_us"]["p50"]' <<<"$j"; }
our_tcp_bw() { local j; j=$(ours tcp_bw "$1" --seconds "$TCP_SECONDS") && jfield 'd["bw_MBps"]' <<<"$j"; }

# summary GOAL REF_VALUES -- OUR_VALUES: "ref median|ref spread|our median|our spread|ratio|result"
summary() {
  "$PYTHON" - "$@" <<'PY'
import statistics, sys
goal = sys.argv[1]
args = sys.argv[2:]
cut = args.index("--")
def nums(xs):
    out = []
    for x in xs:
        try: out.append(float(x))
        except ValueError: pass
    return out
ref, our = nums(args[:cut]), nums(args[cut + 1:])
def fmt(v):
    return f"{v:.3f}" if v < 1 else f"{v:.2f}"
def side(v):
    if not v: return "failed", "–"
    return fmt(statistics.median(v)), f"{fmt(min(v))}..{fmt(max(v))} (n={len(v)})"
rm, rs = side(ref)
om, os_ = side(our)
if ref and our and statistics.median(ref) > 0:
    ratio = statistics.median(our) / statistics.median(ref)
    ok = ratio >= 0.90 if goal == "min90" else 0.90 <= ratio <= 1.10
    result = ("PASS" if ok else "MISS")
    ratio = f"{ratio:.2f}"
else:
    ratio, result = "n/a", "MISS (no figure)"
print(f"{rm}|{rs}|{om}|{os_}|{ratio}|{result}")
PY
}

short() { # values rounded to 4 significant digits, "failed" kept
  local v out=()
  for v in "$@"; do
    if [[ $v =~ ^[0-9.eE+-]+$ ]]; then out+=("$(printf '%.4g' "$v")"); else out+=("$v"); fi
  done
  echo "${out[*]}"
}
RAWLINES=()
# pair LABEL SIZE GOAL GOALTEXT REFNAME "ref command" "our command"
pair() {
  local label=$1 size=$2 goal=$3 goaltext=$4 refname=$5 refcmd=$6 ourcmd=$7
  local refs=() mine=() r v
  [ "$SELF" = 1 ] && ourcmd=$refcmd
  for ((r = 1; r <= ROUNDS; r++)); do
    v=$(eval "$refcmd"); refs+=("${v:-failed}")
    v=$(eval "$ourcmd"); mine+=("${v:-failed}")
  done
  local line rm rs om os ratio result
  line=$(summary "$goal" "${refs[@]}" -- "${mine[@]}") # (no <(...): the test bed has no /dev/fd)
  IFS='|' read -r rm rs om os ratio result <<<"$line"
  echo "| $label | $size | $refname | $rm | $rs | $om | $os | $ratio | $goaltext | $result |"
  RAWLINES+=("| $label | $size | $(short "${refs[@]}") | $(short "${mine[@]}") |")
}

echo "# rdmalab vs reference tools on $DEV ($(date -u +%Y-%m-%dT%H:%MZ))"
echo
[ "$SELF" = 1 ] && echo "**Self-check (--self-check): the \"rdmalab\" columns are the reference tool run again.**" && echo
echo "$ROUNDS alternating rounds per pair (reference, rdmalab, reference, ...); RDMA: $ITERS iterations per"
echo "run (rdmalab warm-up: $WARMUP); TCP: $TCP_SECONDS s per run. Placement: $PLACEMENT. Kernel $(uname -r), $(nproc) CPUs. Latency in µs (perftest t_typical,"
echo "sockperf percentile 50, rdmalab p50), bandwidth in MB/s (10^6 bytes/s; perftest's MB/sec is 2^20 bytes/s"
echo "and is converted). Median and min..max are over the rounds. If the device is SoftRoCE (rxe) these are"
echo "software numbers, not hardware numbers."
echo
echo "| measurement | size | reference | reference median | reference min..max | rdmalab median | rdmalab min..max | ratio | goal | result |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for size in $SIZES; do
  for k in write_lat send_lat read_lat; do
    wants $k || continue
    pair "$k (µs)" "$size" within10 "±10 %" "ib_$k t_typical" "ref_lat $k $size" "our_lat $k $size"
  done
  if wants write_bw; then
    pair "write_bw (MB/s)" "$size" min90 "≥ 90 %" "ib_write_bw BW average" "ref_bw $size" "our_bw write_bw $size"
  fi
  # sockperf's payload is 14 .. 65506 bytes: both tools are measured at the nearest size it accepts.
  ssize=$size
  [ "$ssize" -lt 14 ] && ssize=14
  [ "$ssize" -gt 65506 ] && ssize=65506
  if wants tcp_lat; then
    pair "tcp_lat (µs)" "$ssize" within10 "±10 %" "sockperf ping-pong p50" "ref_sockperf $ssize" "our_tcp_lat $ssize"
  fi
  if wants tcp_bw; then
    pair "tcp_bw (MB/s)" "$size" within10 "±10 %" "iperf3 receiver" "ref_iperf3 $size" "our_tcp_bw $size"
  fi
done
if [ $RAW = 1 ]; then
  echo
  echo "Every round, in order:"
  echo
  echo "| measurement | size | reference | rdmalab |"
  echo "|---|---|---|---|"
  printf '%s\n' "${RAWLINES[@]}"
fi
