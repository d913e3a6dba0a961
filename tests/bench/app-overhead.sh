#!/usr/bin/env bash
# Does watching a measurement in the app change it? Runs the same latency measurement with the CLI alone
# and with the app attached (live charts redrawing, offscreen), alternating, and compares the medians of
# the p50s. Run it where there is an RDMA device, e.g. in the test bed:
#   tests/softroce/vm-run.sh --out $PWD/build -- tests/bench/app-overhead.sh
# Options (environment): ROUNDS (5), ITERS (3000), KINDS ("write_lat tcp_lat"), SIZE (2), BUILD (build/dev),
# CPUS ("0,1": endpoint A on CPU 0, B on CPU 1 in both runs, so placement does not differ; "" to not pin).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build/dev}
cli=$build/engine/rdmalab-cli
app=$build/app/rdmalab
rounds=${ROUNDS:-5}
iters=${ITERS:-3000}
size=${SIZE:-2}
kinds=${KINDS:-write_lat tcp_lat}
cpus=${CPUS-0,1}
pin=()
[ -n "$cpus" ] && pin=(--cpus "$cpus")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen

p50_of() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d=d[0] if isinstance(d,list) else d; print(d["lat_us"]["p50"])' "$1"; }
median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

device=$("$cli" devices --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["devices"]; print(d[0]["name"] if d else "none")' 2>/dev/null || echo none)
echo "# rdmalab with and without the app attached ($(date -u '+%Y-%m-%d %H:%M UTC'), device $device, $iters iterations, $size B, $rounds alternating rounds, endpoints pinned: ${cpus:-no})"
echo
echo "| kind | CLI alone p50 µs (median; runs) | app attached p50 µs (median; runs) | app / CLI |"
echo "|---|---|---|---|"
for kind in $kinds; do
  cli_runs=() app_runs=()
  for ((r = 0; r < rounds; r++)); do
    "$cli" bench "$kind" --size "$size" --iters "$iters" "${pin[@]}" --json > "$work/cli.json"
    cli_runs+=("$(p50_of "$work/cli.json")")
    "$app" --bench "$kind" --size "$size" --iters "$iters" "${pin[@]}" --autoplay --export "$work/app.json" --quit 2>/dev/null
    app_runs+=("$(p50_of "$work/app.json")")
  done
  c=$(median "${cli_runs[@]}")
  a=$(median "${app_runs[@]}")
  ratio=$(python3 -c "print(f'{$a / $c:.3f}')")
  fmt() { python3 -c 'import sys; print(" ".join(f"{float(x):.1f}" for x in sys.argv[1:]))' "$@"; }
  echo "| $kind | $(python3 -c "print(f'{$c:.2f}')") ($(fmt "${cli_runs[@]}")) | $(python3 -c "print(f'{$a:.2f}')") ($(fmt "${app_runs[@]}")) | $ratio |"
done
