#!/bin/bash
# The two-host test bed end to end (CTest `wire_two_hosts`, label wire): two SoftRoCE VMs on one virtual
# wire (wire-run.sh); the CLI's two-host modes run across it — `op write|read|send --size 8192` (host 1
# listens as B, host 2 connects as A) and `bench write_lat` — while host 1 captures its NIC with tcpdump.
# Then tshark, on this machine, decodes each capture and the test asserts what an 8 KiB operation at path
# MTU 1024 must put on the wire (IBTA opcodes): Write First, six Middle, Last and an ACK of the Last's PSN;
# one Read Request answered by Response First, six Middle, Last; Send First, six Middle, Last; PSNs
# consecutive. The RoCE v2 traffic is real: rxe2 in each VM sits on the virtio-net NIC of the wire.
# usage: wire-test.sh BUILD_DIR
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=$(cd "${1:?usage: wire-test.sh BUILD_DIR}" && pwd) || exit 1
CLI=$BUILD/engine/rdmalab-cli
fail() {
    echo "wire-test: FAILED: $*" >&2
    exit 1
}
[ -x "$CLI" ] || fail "no $CLI (build first)"
command -v tshark >/dev/null || fail "tshark is missing: run resources/scripts/install-deps.sh"
command -v tcpdump >/dev/null || fail "tcpdump is missing: run resources/scripts/install-deps.sh"

# Shared with both guests: the captures, each side's output (in the build tree, not /tmp, which the guests
# hide under their own tmpfs).
OUT=$BUILD/tests/wire
rm -rf "$OUT" && mkdir -p "$OUT" || fail "cannot create $OUT"
OPS="write read send"

# Host 1: for each operation, a capture on the wire's NIC, then one listener that serves it. tcpdump -U
# writes each packet as it comes; the listener starts once tcpdump says it listens.
host1=$(cat <<EOF
set -u
capture() {
    tcpdump -U -i "\$RDMALAB_WIRE_IF" -w "$OUT/\$1.pcap" udp port 4791 2>"$OUT/\$1.tcpdump" &
    TP=\$!
    for _ in \$(seq 100); do grep -q listening "$OUT/\$1.tcpdump" && return 0; sleep 0.1; done
    echo "tcpdump did not start: \$(cat "$OUT/\$1.tcpdump")"; return 1
}
for op in $OPS; do
    capture \$op || exit 1
    "$CLI" op \$op --size 8192 --listen "\$RDMALAB_WIRE_ADDR" > "$OUT/\$op.host1" 2>&1
    rc=\$?
    sleep 1; kill -INT \$TP; wait \$TP
    tail -n1 "$OUT/\$op.host1"
    [ \$rc = 0 ] || { cat "$OUT/\$op.host1"; exit \$rc; }
done
"$CLI" bench write_lat --listen "\$RDMALAB_WIRE_ADDR" > "$OUT/bench.host1" 2>&1 || { cat "$OUT/bench.host1"; exit 1; }
echo "bench listener done"
EOF
)
# Host 2: connects to each listener in turn, retrying while host 1 is not listening yet.
host2=$(cat <<EOF
set -u
connect() { # NAME COMMAND...
    name=\$1; shift
    for _ in \$(seq 120); do
        "\$@" > "$OUT/\$name.host2" 2>&1 && { tail -n1 "$OUT/\$name.host2"; return 0; }
        sleep 1
    done
    cat "$OUT/\$name.host2"; return 1
}
for op in $OPS; do
    connect \$op "$CLI" op \$op --size 8192 --connect "\$RDMALAB_WIRE_PEER" || exit 1
done
connect bench "$CLI" bench write_lat --connect "\$RDMALAB_WIRE_PEER" --iters 200 || exit 1
EOF
)
# The guests see the checkout (and the build tree in it) writable at its own path, even under a path they
# hide (/root, /tmp: guest-tmpfs.list).
ROOT=$(cd "$HERE/../.." && pwd)
case $BUILD/ in "$ROOT"/*) ;; *) fail "the build tree $BUILD is not inside the checkout $ROOT (the guests see only the checkout)" ;; esac
"$HERE/wire-run.sh" --timeout 900 --out "$ROOT" -- "$host1" "$host2" || fail "the two hosts did not both succeed (above)"

# The packets of the RC connection (QP 1 carries rdma_cm's MADs: left out), in capture order, as
# "direction opcode psn": direction A->B (host 2 to host 1) or B->A.
packets() {
    tshark -r "$OUT/$1.pcap" -Y 'infiniband.bth.destqp != 1' -T fields \
        -e ip.src -e infiniband.bth.opcode -e infiniband.bth.psn 2>/dev/null |
        awk '{ print ($1 == "192.0.2.2" ? "A->B" : "B->A"), $2, $3 }'
}
# Checks that the packets from DIRECTION with opcodes FIRST, MIDDLE x6, LAST follow one another with
# consecutive PSNs; prints the Last's PSN.
check_message() { # CAPTURE DIRECTION FIRST MIDDLE LAST
    packets "$1" | awk -v dir="$2" -v first="$3" -v middle="$4" -v last="$5" '
        BEGIN { n = 0 }
        $1 == dir && ($2 == first || $2 == middle || $2 == last) { op[n] = $2; psn[n] = $3; n++ }
        END {
            if (n != 8) { print "expected 8 data packets " dir ", captured " n; exit 1 }
            for (i = 0; i < n; i++) {
                want = (i == 0 ? first : (i == n - 1 ? last : middle))
                if (op[i] != want) { print "packet " i + 1 " of the message has opcode " op[i] ", not " want; exit 1 }
                if (i > 0 && psn[i] != psn[i - 1] + 1) { print "PSN " psn[i] " follows " psn[i - 1]; exit 1 }
            }
            print psn[n - 1]
        }'
}

# RDMA WRITE: First (6), Middle (7) x6, Last (8) from A; B acknowledges (17) the Last's PSN.
last=$(check_message write "A->B" 6 7 8) || fail "write: $last"
packets write | grep -qx "B->A 17 $last" || fail "write: no ACK of PSN $last from B: $(packets write | tr '\n' ';')"
# RDMA READ: one Request (12) from A; B answers Response First (13), Middle (14) x6, Last (15).
[ "$(packets read | grep -c '^A->B 12 ')" = 1 ] || fail "read: expected one READ Request: $(packets read | tr '\n' ';')"
out=$(check_message read "B->A" 13 14 15) || fail "read: $out"
# SEND: First (0), Middle (1) x6, Last (2) from A, acknowledged.
last=$(check_message send "A->B" 0 1 2) || fail "send: $last"
packets send | grep -qx "B->A 17 $last" || fail "send: no ACK of PSN $last from B"
grep -q 'rxe2' "$OUT/bench.host2" || fail "bench: the measurement does not name the device rxe2: $(cat "$OUT/bench.host2")"
echo "wire-test: on the wire between two SoftRoCE hosts: write, read and send of 8 KiB each as 8 packets of" \
    "1024 B with consecutive PSNs (tshark), acknowledged; bench write_lat across the hosts:" \
    "p50 $(awk '/#iters/ { getline; print $4; exit }' "$OUT/bench.host2") us on rxe2 (software, under emulation)"
