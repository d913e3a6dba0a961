#!/bin/bash
# Every lab of the curriculum run step by step in the app, headless, in the SoftRoCE test bed:
# `rdmalab --lab ID --autoplay --screenshot PNG --report HTML --quit` per lab (exit 0 only when every
# expectation held), one VM for all of them. Prints one line per lab and a summary; writes each lab's
# screenshot and report under OUT (default build/labs-in-app), and with --chapter-shots DIR copies the first
# lab of each chapter's screenshot to DIR/NN-ID.png (the README's per-chapter pictures).
#
# usage: tests/softroce/labs-in-app.sh [--build DIR] [--out DIR] [--chapter-shots DIR] [ID...]
# Exit status: 0 when every lab held every expectation, 1 otherwise, 125 when the VM failed.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=build/dev
OUT=build/labs-in-app
SHOTS=
while [ $# -gt 0 ]; do
    case $1 in
        --build) BUILD=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --chapter-shots) SHOTS=$2; shift 2 ;;
        -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --*) echo "labs-in-app: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
cd "$ROOT" || exit 2
CLI=$BUILD/engine/rdmalab-cli
APP=$BUILD/app/rdmalab
for f in "$CLI" "$APP"; do
    [ -x "$f" ] || { echo "labs-in-app: $f is missing: build the $BUILD preset first" >&2; exit 2; }
done
mkdir -p "$OUT"
# chapter<TAB>id, in curriculum order (lab list --json needs no device).
"$CLI" lab list --json | python3 -c '
import json, sys
for lab in json.load(sys.stdin)["labs"]:
    print("%02d\t%s" % (lab["chapter"], lab["id"]))' > "$OUT/labs.tsv" || exit 2
if [ $# -gt 0 ]; then
    want=" $* "
    awk -F'\t' -v want="$want" 'index(want, " " $2 " ")' "$OUT/labs.tsv" > "$OUT/labs.sel" && mv "$OUT/labs.sel" "$OUT/labs.tsv"
fi

# Inside the VM: each lab once; its status, seconds and the report's held/broken verdict cells (not the
# questions' marks) to results.tsv.
"$HERE/vm-run.sh" --timeout 5400 --out "$ROOT/build" -- sh -c '
export QT_QPA_PLATFORM=offscreen RDMALAB_REQUIRE_DEVICE=1
out=$1 app=$2
: > "$out/results.tsv"
while IFS="	" read -r chapter id; do
    start=$(date +%s)
    "$app" --lab "$id" --autoplay --screenshot "$out/$id.png" --report "$out/$id.html" --quit \
        > "$out/$id.log" 2>&1
    rc=$?
    held=$(grep -o "<td class=held>" "$out/$id.html" 2>/dev/null | wc -l)
    broken=$(grep -o "<td class=broken>" "$out/$id.html" 2>/dev/null | wc -l)
    printf "%s\t%s\t%s\t%s\t%s\t%s\n" "$chapter" "$id" "$rc" "$held" "$broken" "$(( $(date +%s) - start ))" \
        >> "$out/results.tsv"
    printf "%s  %-32s rc=%s held=%s broken=%s\n" "$chapter" "$id" "$rc" "$held" "$broken"
done < "$out/labs.tsv"
' labs-in-app "$OUT" "$APP"
vm=$?
[ $vm -eq 125 ] && { echo "labs-in-app: the test bed did not start" >&2; exit 125; }
[ -s "$OUT/results.tsv" ] || { echo "labs-in-app: no results (VM exit $vm)" >&2; exit 1; }

if [ -n "$SHOTS" ]; then
    mkdir -p "$SHOTS"
    awk -F'\t' '!seen[$1]++ { print $1 "\t" $2 }' "$OUT/results.tsv" | while IFS=$'\t' read -r chapter id; do
        [ -f "$OUT/$id.png" ] && cp "$OUT/$id.png" "$SHOTS/$chapter-$id.png"
    done
fi
awk -F'\t' '
    { labs++; if ($3 == 0 && $5 == 0) ok++; held += $4; broken += $5; secs += $6 }
    END { printf "labs-in-app: %d of %d labs held every expectation in the app; %d expectations shown held, %d broken; %d s\n",
          ok, labs, held, broken, secs; exit (ok == labs ? 0 : 1) }' "$OUT/results.tsv"
