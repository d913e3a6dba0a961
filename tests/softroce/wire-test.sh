#!/bin/bash
# The two-host test bed end to end (CTest `wire_two_hosts`, label wire): two SoftRoCE VMs on one virtual
# wire (wire-run.sh); the CLI's two-host modes run across it — `op` for every opcode and two faults (host 1
# listens as B, host 2 connects as A, both with the engine's own capture, `--wire`) and `bench write_lat` —
# while host 1 also captures its NIC with tcpdump, the reference. Then, on this machine: tshark decodes
# tcpdump's captures and the test asserts what an 8 KiB operation at path MTU 1024 must put on the wire
# (IBTA opcodes): Write First, six Middle, Last and an ACK of the Last's PSN; one Read Request answered by
# Response First, six Middle, Last; Send First, six Middle, Last; PSNs consecutive. The engine captured as
# many packets as tcpdump in every case, and its decoding of each agrees with tshark's on the pcapng the
# engine wrote (tst_roce). The RoCE v2 traffic is real: rxe2 in each VM sits on the NIC of the wire.
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

ROOT=$(cd "$HERE/../.." && pwd)
# Shared with both guests: the captures, each side's output (in the build tree, not /tmp, which the guests
# hide under their own tmpfs).
OUT=$BUILD/tests/wire
rm -rf "$OUT" && mkdir -p "$OUT" || fail "cannot create $OUT"
# Each case: NAME, then the op's arguments. Every case's packets are captured by the engine itself
# (`op --wire`) on both hosts, host 1's saved as pcapng; tcpdump captures them too, the reference.
CASES="write:write --size 8192
read:read --size 8192
send:send --size 8192
write_imm:write_imm --size 2048
send_imm:send_imm --size 2048
cas:cas
faa:faa
bad_rkey:write --fault bad-rkey
no_recv:send --fault no-recv
loss:write --size 16384"
# The loss case: host 2 (A) drops one packet of the Write on its way out, inside its VM, before either
# capture sees it: the 15th RoCE v2 packet of the RC connection (tc's gact action, deterministic: every
# 15th, and the 16 packets of the Write plus the go-back-N resend stay under 30). A prio qdisc with two
# u32 filters: QP 1 (rdma_cm's MADs: the BTH's destination QP, 4 bytes at IP offset 32 under its reserved
# byte) passes untouched; other UDP 4791 traffic meets the dropper.
# (Host 2's lossy(), below.)
# The two-host labs (labs/29-wire, `hosts: 2`): host 1 runs each as endpoint B (--listen), host 2 as A
# (--connect); both must hold every expectation, and the steps must have run, not been skipped. Their
# traces are *.trace, not *.jsonl: tst_roce pairs every *.host1.jsonl here with a pcapng of op.
WIRE_LABS="write-on-the-wire loss-and-retransmission access-error-on-the-wire read-on-the-wire rnr-on-the-wire atomics-on-the-wire segmentation-and-mtu ud-on-the-wire"

# Host 1: for each case, tcpdump on the wire's NIC, then one listener that serves it with its own capture.
# tcpdump -U writes each packet as it comes; the listener starts once tcpdump says it listens.
host1=$(cat <<EOF
set -u
capture() {
    tcpdump -U -i "\$RDMALAB_WIRE_IF" -w "$OUT/\$1.pcap" udp port 4791 2>"$OUT/\$1.tcpdump" &
    TP=\$!
    for _ in \$(seq 100); do grep -q listening "$OUT/\$1.tcpdump" && return 0; sleep 0.1; done
    echo "tcpdump did not start: \$(cat "$OUT/\$1.tcpdump")"; return 1
}
echo "$CASES" | while IFS=: read -r name args; do
    capture \$name || exit 1
    "$CLI" op \$args --listen "\$RDMALAB_WIRE_ADDR" --wire --pcapng "$OUT/\$name.pcapng" --json \\
        > "$OUT/\$name.host1.jsonl" 2> "$OUT/\$name.host1.err"
    rc=\$?
    sleep 1; kill -INT \$TP; wait \$TP
    echo "\$name: \$(tail -n1 "$OUT/\$name.host1.jsonl" | grep -o '"summary":"[^"]*"')"
    [ \$rc = 0 ] || { cat "$OUT/\$name.host1.err"; exit \$rc; }
done || exit 1
# One listener per measurement of host 2: untraced, captured whole, captured in a 50-packet window.
for run in bench bench_wire bench_window; do
    "$CLI" bench write_lat --listen "\$RDMALAB_WIRE_ADDR" > "$OUT/\$run.host1" 2>&1 || { cat "$OUT/\$run.host1"; exit 1; }
done
echo "bench listeners done"
for lab in $WIRE_LABS; do
    "$CLI" lab run "$ROOT/labs/29-wire/\$lab.yaml" --listen "\$RDMALAB_WIRE_ADDR" --trace "$OUT/lab-\$lab.host1.trace" \
        > "$OUT/lab-\$lab.host1" 2>&1 || { cat "$OUT/lab-\$lab.host1"; exit 1; }
    tail -n1 "$OUT/lab-\$lab.host1"
done
EOF
)
# Host 2: connects to each listener in turn, retrying while host 1 is not listening yet (and only then).
host2=$(cat <<EOF
set -u
connect() { # OUTPUT COMMAND...: stdout to OUTPUT, stderr to OUTPUT.err
    out=\$1; shift
    for _ in \$(seq 120); do
        "\$@" > "$OUT/\$out" 2> "$OUT/\$out.err" && { echo "\$out: \$(tail -n1 "$OUT/\$out" | grep -o '"summary":"[^"]*"')"; return 0; }
        # Only a connection that did not happen (host 1 not listening yet) is tried again.
        cat "$OUT/\$out" "$OUT/\$out.err" | grep -qiE 'RDMA_CM_EVENT_(REJECTED|UNREACHABLE|ADDR_ERROR|ROUTE_ERROR|CONNECT_ERROR)|rejected|refused' || break
        sleep 1
    done
    cat "$OUT/\$out" "$OUT/\$out.err"; return 1
}
lossy() {
    tc qdisc add dev "\$RDMALAB_WIRE_IF" root handle 1: prio &&
        tc filter add dev "\$RDMALAB_WIRE_IF" parent 1: protocol ip prio 1 u32 \\
            match u32 0x00000001 0x00ffffff at 32 flowid 1:1 &&
        tc filter add dev "\$RDMALAB_WIRE_IF" parent 1: protocol ip prio 2 u32 \\
            match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:2 \\
            action gact ok random determ drop 15
}
echo "$CASES" | while IFS=: read -r name args; do
    if [ \$name = loss ]; then lossy || { echo "tc could not make the wire lossy"; exit 1; }; fi
    connect \$name.host2.jsonl "$CLI" op \$args --connect "\$RDMALAB_WIRE_PEER" --wire --pcapng "$OUT/\$name.host2.pcapng" --json || exit 1
    if [ \$name = loss ]; then tc qdisc del dev "\$RDMALAB_WIRE_IF" root; fi
done || exit 1
# The capture's cost: the same measurement without and with a capture of every packet (the ratio of
# the medians is printed below); then a bounded window, which closes after 50 packets.
connect bench.host2 "$CLI" bench write_lat --connect "\$RDMALAB_WIRE_PEER" --iters 300 || exit 1
connect bench_wire.host2 "$CLI" bench write_lat --connect "\$RDMALAB_WIRE_PEER" --iters 300 \\
    --wire --wire-ms 60000 --wire-packets 300000 --pcapng "$OUT/bench_wire.pcapng" || exit 1
connect bench_window.host2 "$CLI" bench write_lat --connect "\$RDMALAB_WIRE_PEER" --iters 300 \\
    --wire --wire-packets 50 || exit 1
for lab in $WIRE_LABS; do
    "$CLI" lab run "$ROOT/labs/29-wire/\$lab.yaml" --connect "\$RDMALAB_WIRE_PEER" --trace "$OUT/lab-\$lab.host2.trace" \
        > "$OUT/lab-\$lab.host2" 2>&1 || { cat "$OUT/lab-\$lab.host2"; exit 1; }
    tail -n1 "$OUT/lab-\$lab.host2"
done
EOF
)
# The guests see the checkout (and the build tree in it) writable at its own path, even under a path they
# hide (/root, /tmp: guest-tmpfs.list).
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
# The engine's own capture, against tcpdump's in the same run: the same packets of the connection in every case;
# then its decoding of every packet against tshark's decoding of the pcapng it wrote, field by field,
# every ICRC verified, the RNR NAK and the remote access NAK on the wire (tst_roce).
echo "$CASES" | while IFS=: read -r name _; do
    # The connection's own packets (QP 1 carries rdma_cm's MADs, and tcpdump also saw host 2's connects
    # that came before the listener).
    ours=$(grep '"kind":"packet","name":"packet"' "$OUT/$name.host1.jsonl" | grep -vc '"ids":{"qpn":1}')
    theirs=$(tshark -r "$OUT/$name.pcap" -Y 'infiniband.bth.destqp != 1' 2>/dev/null | wc -l)
    [ "$ours" -gt 0 ] && [ "$ours" = "$theirs" ] ||
        fail "$name: the engine captured $ours packets of the connection, tcpdump $theirs"
done || exit 1
RDMALAB_WIRE_CAPTURES=$OUT "$BUILD/tests/tst_roce" theEnginesDecodingAgreesWithTshark \
    theEnginesPacketsBelongToTheirWorkRequests || fail "the engine's decoding of the captured packets (above)"
# The labs: every step ran on both hosts (none skipped, none broken), the loss lab saw the NAK and the resent
# PSNs, and both hosts' traces hold the packets of the connection.
for lab in $WIRE_LABS; do
    for host in host1 host2; do
        grep -q "^ok $lab: [1-9][0-9]* expectations held, 0 broken" "$OUT/lab-$lab.$host" ||
            fail "lab $lab on $host: $(tail -n3 "$OUT/lab-$lab.$host")"
        ! grep -q "skipped:" "$OUT/lab-$lab.$host" || fail "lab $lab on $host: steps were skipped"
    done
    grep -q '"kind":"packet","name":"packet"' "$OUT/lab-$lab.host2.trace" || fail "lab $lab: no packet in host 2's trace"
done
grep -q "held    compare: wire_loss.seq_naks >= 1" "$OUT/lab-loss-and-retransmission.host2" ||
    fail "loss-and-retransmission: no PSN sequence NAK held"
grep -q 'tc qdisc del dev' "$OUT/lab-loss-and-retransmission.host2.trace" ||
    fail "loss-and-retransmission: the dropper was not removed at teardown"
grep -q 'rxe2' "$OUT/bench.host2" || fail "bench: the measurement does not name the device rxe2: $(cat "$OUT/bench.host2")"
# The measurement's capture: every packet of the 300 round trips and their warm-up kept, none dropped;
# the bounded window closed at its 50th packet and said so.
kept=$(sed -n 's/.*wire: \([0-9]*\) packets kept on .* \([0-9]*\) dropped by the kernel.*/\1 \2/p' "$OUT/bench_wire.host2")
set -- $kept
[ "${1:-0}" -ge 600 ] && [ "${2:-1}" = 0 ] || fail "bench --wire: expected at least 600 packets kept and none dropped: $(grep wire: "$OUT/bench_wire.host2")"
grep -q "50 packets kept on .*the capture closed at the window's 50 packets" "$OUT/bench_window.host2" ||
    fail "bench --wire-packets 50: the window did not close at 50 packets: $(grep wire: "$OUT/bench_window.host2")"
p50() { awk '/#iters/ { getline; print $4; exit }' "$1"; }
p50_plain=$(p50 "$OUT/bench.host2") p50_wire=$(p50 "$OUT/bench_wire.host2")
wire_cost="p50 $p50_plain us untraced, $p50_wire us with every packet captured ($(awk -v a="$p50_wire" -v b="$p50_plain" 'BEGIN { printf "%.2f", a / b }')x)"
echo "wire-test: on the wire between two SoftRoCE hosts: write, read and send of 8 KiB each as 8 packets of" \
    "1024 B with consecutive PSNs (tshark), acknowledged; bench write_lat across the hosts:" \
    "$wire_cost on rxe2 (software, under emulation; $1 packets kept)"
