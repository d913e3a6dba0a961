#!/usr/bin/env bash
# Side-by-side: rdmalab's measurements next to the reference tools, same device, same sizes, same run.
# Needs an RDMA device: run it in the test bed:
#   tests/softroce/vm-run.sh --out $PWD/build -- tests/bench/compare.sh [ITERS] > build/compare.txt
# Prints one table (markdown) with both figures and their ratio for 2 B and 64 KiB messages.
set -uo pipefail
cd "$(dirname "$0")/../.."
CLI=${RDMALAB_CLI:-build/dev/engine/rdmalab-cli}
ITERS=${1:-2000}
DEV=$($CLI devices --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["name"])')
GIDX=$($CLI devices --json | python3 -c '
import json,sys
p=json.load(sys.stdin)["devices"][0]["ports"][0]
g=[x for x in p["gids"] if x["type"]=="RoCE v2" and x["gid"].startswith("::ffff:")] or [x for x in p["gids"] if x["type"]=="RoCE v2"]
print(g[0]["index"])')
PORT=18515

# perftest: server in the background, client in the foreground; prints the client's data line.
perftest() { # tool size extra-args...
  local tool=$1 size=$2; shift 2
  $tool -d "$DEV" -x "$GIDX" -s "$size" -p $PORT "$@" >/dev/null 2>&1 &
  local server=$!
  sleep 2
  $tool -d "$DEV" -x "$GIDX" -s "$size" -p $PORT "$@" 127.0.0.1 2>/dev/null | awk -v s="$size" '$1==s {print; exit}'
  wait $server 2>/dev/null
  PORT=$((PORT + 1))
}
ours() { # kind size -> json
  $CLI bench "$1" --size "$2" --iters "$ITERS" --json
}
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

echo "# rdmalab vs reference tools on $DEV ($(date -u +%Y-%m-%dT%H:%MZ), $ITERS iterations)"
echo
echo "SoftRoCE is software RDMA: these are not hardware numbers. Latency in µs (p50 / perftest t_typical),"
echo "bandwidth in MB/s (10^6 bytes/s; perftest's MB/sec is 2^20 bytes/s and is converted)."
echo
echo "| measurement | size | reference | reference value | rdmalab | ratio rdmalab/reference |"
echo "|---|---|---|---|---|---|"
for size in 2 65536; do
  for pair in "write_lat ib_write_lat" "send_lat ib_send_lat" "read_lat ib_read_lat"; do
    set -- $pair
    ref=$(perftest "$2" "$size" -n "$ITERS" | awk '{print $5}')   # t_typical[usec]
    mine=$(ours "$1" "$size" | field 'd["lat_us"]["p50"]')
    ratio=$(python3 -c "print(f'{float(\"$mine\")/float(\"$ref\"):.2f}' if \"$ref\" else 'n/a')" 2>/dev/null)
    echo "| $1 | $size | $2 t_typical | ${ref:-failed} | $(printf %.2f "$mine") | ${ratio:-n/a} |"
  done
  ref=$(perftest ib_write_bw "$size" -n "$ITERS" | awk '{print $4}')   # BW average[MB/sec], 2^20
  ref10=$(python3 -c "print(f'{float(\"$ref\")*1.048576:.2f}')" 2>/dev/null)
  mine=$(ours write_bw "$size" | field 'd["bw_MBps"]')
  ratio=$(python3 -c "print(f'{float(\"$mine\")/float(\"$ref10\"):.2f}')" 2>/dev/null)
  echo "| write_bw | $size | ib_write_bw BW average | ${ref10:-failed} | $(printf %.2f "$mine") | ${ratio:-n/a} |"
  # TCP: sockperf ping-pong (half round trip) and iperf3.
  # sockperf's payload is 14 .. 65506 bytes: measure both tools at the nearest size it accepts.
  ssize=$size; [ "$ssize" -lt 14 ] && ssize=14; [ "$ssize" -gt 65506 ] && ssize=65506
  sockperf sr --tcp -i 127.0.0.1 -p 11111 >/dev/null 2>&1 &
  srv=$!
  sleep 3
  ref=$(sockperf pp --tcp -i 127.0.0.1 -p 11111 -m "$ssize" -t 5 2>/dev/null | awk '/percentile 50.000/ {print $NF}')
  kill $srv 2>/dev/null; wait $srv 2>/dev/null
  mine=$(ours tcp_lat "$ssize" | field 'd["lat_us"]["p50"]')
  ratio=$(python3 -c "print(f'{float(\"$mine\")/float(\"$ref\"):.2f}')" 2>/dev/null)
  echo "| tcp_lat | $ssize | sockperf ping-pong p50 | ${ref:-failed} | $(printf %.2f "$mine") | ${ratio:-n/a} |"
  iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
  srv=$!
  sleep 1
  ref=$(iperf3 -c 127.0.0.1 -p 5201 -l "$size" -t 5 -J 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/8e6)' 2>/dev/null)
  wait $srv 2>/dev/null
  mine=$(ours tcp_bw "$size" | field 'd["bw_MBps"]')
  ratio=$(python3 -c "print(f'{float(\"$mine\")/float(\"$ref\"):.2f}')" 2>/dev/null)
  echo "| tcp_bw | $size | iperf3 receiver | $(printf %.2f "${ref:-0}") | $(printf %.2f "$mine") | ${ratio:-n/a} |"
done
