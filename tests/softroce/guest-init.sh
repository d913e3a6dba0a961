#!/bin/busybox sh
# /init of the SoftRoCE test VM (packed into the initramfs by prepare.sh).
# Runs under busybox-static.  Contract with vm-run.sh (virtio-9p mount tags):
#   rdlctl   - writable host temp dir: run.sh (command script), out_path
#              (optional), engine_port (optional: the engine mode, below), and
#              where we write: stage, error, rc
#   hostroot - host "/" (read-only), becomes the chroot
#   rdlout   - optional writable host dir (--out), mounted at the same path
# Kernel cmdline: rdmalab.debug=1 -> verbose shell trace.
#
# Engine mode (the app's `--engine vm`): when rdlctl/engine_port names a
# virtio-serial port (qemu -device virtserialport,name=NAME), run.sh runs with
# its stdin and stdout on that port instead of the console (stderr stays on the
# console), after this line on the console tells the host it starts:
#   rdmalab-vm: engine on /dev/vportNpM
# The VM powers off when run.sh ends, as in the test bed.

/bin/busybox mkdir -p /bin /sbin /proc /sys /dev /ctl /mnt/root
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
umask 022

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

R=/mnt/root
P9="trans=virtio,version=9p2000.L,msize=512000"
CTL_OK=0

case " $(cat /proc/cmdline) " in *" rdmalab.debug=1 "*) set -x ;; esac

stage() { [ "$CTL_OK" = 1 ] && echo "$*" > /ctl/stage; }

fail() {
    echo "rdmalab-vm: GUEST ERROR: $*" >&2
    if [ "$CTL_OK" = 1 ]; then echo "$*" > /ctl/error; fi
    sync
    poweroff -f
    sleep 10
}

stage modules
for m in $(cat /etc/rdmalab-modules); do
    args=
    [ "$m" = dummy.ko ] && args=numdummies=0
    insmod "/lib/modules/$m" $args || fail "loading kernel module $m failed"
done

mount -t 9p -o "$P9" rdlctl /ctl || fail "mounting the control 9p share (rdlctl) failed"
CTL_OK=1
stage mount-hostroot

mount -t 9p -o "ro,$P9,cache=loose" hostroot "$R" \
    || fail "mounting the host root read-only over 9p (hostroot) failed"

stage chroot-setup
mount -t proc proc "$R/proc"            || fail "mount $R/proc"
mount -t sysfs sysfs "$R/sys"           || fail "mount $R/sys"
# tracefs lets the benchmarks count system calls per message (perf tracepoint raw_syscalls:sys_enter).
if mount -t tracefs tracefs "$R/sys/kernel/tracing" 2>/dev/null; then
    # Keeps the tracepoint registered from now on, so counting never rewrites kernel code under TCG
    # (see hold-sys-enter.c); the VM cannot run its tests safely without it.
    hold_out=$( (hold-sys-enter "$R/sys/kernel/tracing/events/raw_syscalls/sys_enter/id" &) | head -n1)
    [ "$hold_out" = ready ] || fail "hold-sys-enter did not start: the sys_enter tracepoint cannot be held"
else
    echo "rdmalab guest: tracefs not mounted; syscalls per message will read not measured"
fi
mount -t devtmpfs devtmpfs "$R/dev"     || fail "mount $R/dev"
mkdir -p "$R/dev/pts"
mount -t devpts -o gid=5,mode=0620,ptmxmode=0666 devpts "$R/dev/pts" || fail "mount $R/dev/pts"
# The guest's own empty tmpfs mounts over host paths: the one list, tests/softroce/guest-tmpfs.list
# (packed as /etc/rdmalab-tmpfs; the app reads the same list to decide what it shares with the guest).
while read -r path mode; do
    case $path in ""|"#"*) continue ;; esac
    [ -d "$R$path" ] || mkdir -p "$R$path" || fail "mkdir $R$path"
    mount -t tmpfs -o "mode=$mode" tmpfs "$R$path" || fail "mount tmpfs on $R$path"
done < /etc/rdmalab-tmpfs
mkdir -p "$R/tmp/home" "$R/run/rdmalab"
chmod 0777 "$R/tmp/home"

if [ -s /ctl/out_path ]; then
    OUT=$(cat /ctl/out_path)
    mkdir -p "$R$OUT" 2>/dev/null
    # cache=mmap: pages of mapped files (the test programs and the CLI they start) stay cached in the
    # guest; without it every start read them again through 9p (an asan rdmalab-cli took 4.4 s to
    # start instead of 1.1). read() and write() still go straight to the host.
    mount -t 9p -o "$P9,cache=mmap" rdlout "$R$OUT" || fail "mounting --out dir $OUT (rdlout) failed"
fi

hostname softroce-vm
stage rxe
ip link set lo up || fail "ip link set lo up failed"
chroot "$R" rdma link add rxe0 type rxe netdev lo \
    || fail "creating rxe0 ('rdma link add rxe0 type rxe netdev lo') failed"
# rdma_cm refuses RoCE on lo (ARPHRD_LOOPBACK), so add a second device on an
# Ethernet-type dummy netdev with a private address; traffic to its own
# address is looped back by rxe/the IP stack, never leaves the VM.
CM_IP=10.233.0.1
chroot "$R" ip link add rdmalab0 type dummy  || fail "creating dummy netdev rdmalab0 failed"
chroot "$R" ip link set rdmalab0 mtu 9000 up || fail "ip link set rdmalab0 up failed"
chroot "$R" ip addr add "$CM_IP/24" dev rdmalab0 || fail "adding $CM_IP to rdmalab0 failed"
chroot "$R" rdma link add rxe1 type rxe netdev rdmalab0 \
    || fail "creating rxe1 ('rdma link add rxe1 type rxe netdev rdmalab0') failed"
# The two-host wire (vm-run.sh --wire): rdlctl/wire holds this host's address on it ("192.0.2.1/24"). The
# virtio-net NIC joined to the other VM by qemu's stream netdev gets it, and rxe2 on it puts real RoCE v2
# packets on that NIC (rxe loops traffic between QPs of one device back inside the driver).
DEVICES="rxe0 rxe1"
if [ -s /ctl/wire ]; then
    stage wire
    WIRE_IF=
    for n in /sys/class/net/*; do
        [ "$(basename "$(readlink -f "$n/device/driver" 2>/dev/null)")" = virtio_net ] && WIRE_IF=${n##*/}
    done
    [ -n "$WIRE_IF" ] || fail "no virtio-net interface for the wire (is qemu started with -device virtio-net-pci?)"
    chroot "$R" ip addr add "$(cat /ctl/wire)" dev "$WIRE_IF" || fail "adding $(cat /ctl/wire) to $WIRE_IF failed"
    chroot "$R" ip link set "$WIRE_IF" up || fail "ip link set $WIRE_IF up failed"
    chroot "$R" rdma link add rxe2 type rxe netdev "$WIRE_IF" \
        || fail "creating rxe2 ('rdma link add rxe2 type rxe netdev $WIRE_IF') failed"
    echo "$WIRE_IF" > /ctl/wire_if
    DEVICES="$DEVICES rxe2"
fi
for d in $DEVICES; do
    i=0
    while ! grep -q ACTIVE /sys/class/infiniband/$d/ports/1/state 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt 100 ] && fail "$d port 1 did not become ACTIVE: $(cat /sys/class/infiniband/$d/ports/1/state 2>&1)"
        sleep 0.1
    done
done
[ -e /dev/infiniband/uverbs0 ] && [ -e /dev/infiniband/uverbs1 ] \
    || fail "/dev/infiniband/uverbs0/1 missing after creating rxe0/rxe1"
[ ! -s /ctl/wire ] || [ -e /dev/infiniband/uverbs2 ] || fail "/dev/infiniband/uverbs2 missing after creating rxe2"
chmod 0666 /dev/infiniband/* || fail "chmod /dev/infiniband/*"

PORT=
if [ -s /ctl/engine_port ]; then
    stage engine-port
    want=$(cat /ctl/engine_port)
    i=0
    while [ -z "$PORT" ]; do
        for p in /sys/class/virtio-ports/*; do
            [ "$(cat "$p/name" 2>/dev/null)" = "$want" ] && PORT=/dev/${p##*/}
        done
        [ -n "$PORT" ] && [ -c "$R$PORT" ] && break
        PORT=
        i=$((i + 1))
        [ $i -gt 50 ] && fail "virtio-serial port '$want' not found (is qemu started with -device virtserialport,name=$want?)"
        sleep 0.1
    done
fi

stage run
cp /ctl/run.sh "$R/run/rdmalab/run.sh" || fail "copying run.sh"
[ -z "${WIRE_IF:-}" ] || echo "export RDMALAB_WIRE_IF=$WIRE_IF" > "$R/run/rdmalab/wire.env"
ulimit -l unlimited
# Console: no CR insertion, so the host gets the bytes the command wrote.
stty -onlcr 2>/dev/null
echo "$(cut -d' ' -f1 /proc/uptime)" > /ctl/t_cmd_start
if [ -n "$PORT" ]; then
    echo "rdmalab-vm: engine on $PORT"
    # One open for both directions: a virtio-serial port can be open only once at a time.
    chroot "$R" /usr/bin/env -i /bin/bash /run/rdmalab/run.sh <>"$R$PORT" 1>&0
else
    chroot "$R" /usr/bin/env -i /bin/bash /run/rdmalab/run.sh </dev/null
fi
rc=$?
stty -onlcr 2>/dev/null   # tcsetattr(TCSADRAIN): wait for the console output to drain
echo "$rc" > /ctl/rc
stage finished
sync
[ -n "$OUT" ] && umount "$R$OUT" 2>/dev/null
umount /ctl 2>/dev/null
poweroff -f
sleep 10
