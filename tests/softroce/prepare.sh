#!/bin/bash
# Prepare (idempotently) the SoftRoCE test VM: a Debian kernel + a tiny
# busybox initramfs, cached in ${RDMALAB_VM_CACHE:-$HOME/.cache/rdmalab/vm}.
#
# On success writes $CACHE/current.env (RDMALAB_VM_KERNEL, RDMALAB_VM_INITRD,
# RDMALAB_VM_KVER) for vm-run.sh.  Quiet unless it has work to do.
#
# usage: prepare.sh [--no-fetch]
#   --no-fetch: download and install nothing (the app runs it so before it boots the VM): fail with
#               exit status 3 when the kernel is not cached yet; a changed guest-init.sh still rebuilds
#               the initramfs (local work only).
#
# Environment:
#   RDMALAB_VM_CACHE        cache dir
#   RDMALAB_VM_KERNEL_PKG   kernel package to use (default: what the
#                           linux-image-amd64 metapackage depends on)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${RDMALAB_VM_CACHE:-$HOME/.cache/rdmalab/vm}
INIT_SRC=$HERE/guest-init.sh
TMPFS_LIST=$HERE/guest-tmpfs.list
# Modules the guest init loads (dependencies are resolved from modules.dep).
# dummy: Ethernet-type netdev for a second rxe device that rdma_cm can use
# (rdma_cm refuses RoCE on lo, which is ARPHRD_LOOPBACK).
# virtio_console: the virtio-serial port the app's engine speaks on in the engine mode (guest-init.sh).
# virtio_net: the NIC of the two-host wire (vm-run.sh --wire); sch_netem: loss and delay on that wire (tc),
# sch_prio, cls_u32 and act_gact: one packet of the RC connection dropped (tests/softroce/wire-test.sh).
MODULES=(crc32_generic virtio_pci 9pnet_virtio 9p rdma_rxe rdma_ucm dummy virtio_console virtio_net sch_netem sch_prio cls_u32 act_gact)

log() { echo "rdmalab prepare: $*" >&2; }
die() { echo "rdmalab prepare: ERROR: $*" >&2; exit 1; }
NO_FETCH=0
case ${1:-} in
    --no-fetch) NO_FETCH=1 ;;
    "") ;;
    *) die "unknown option '$1' (usage: prepare.sh [--no-fetch])" ;;
esac
# --no-fetch and something must be downloaded or installed: say what, and the command that does it.
not_fetching() { echo "rdmalab prepare: ERROR: $* is missing; run $HERE/prepare.sh once (it downloads and installs it)" >&2; exit 3; }

# ---------------------------------------------------------------- host tools
need_pkgs=()
have() { command -v "$1" >/dev/null 2>&1; }
have qemu-system-x86_64 || need_pkgs+=(qemu-system-x86)
# busybox must be the static one: it runs as the guest's /init.
if ! { [ -x /bin/busybox ] && ! LC_ALL=C readelf -l /bin/busybox 2>/dev/null | grep -q INTERP; }; then
    need_pkgs+=(busybox-static)
fi
{ have depmod && have modprobe; } || { PATH=$PATH:/sbin:/usr/sbin; have depmod && have modprobe; } || need_pkgs+=(kmod)
have cpio || need_pkgs+=(cpio)
have rdma || [ -x /usr/sbin/rdma ] || [ -x /sbin/rdma ] || need_pkgs+=(iproute2)
ls /usr/lib/*/libibverbs/librxe-rdmav*.so >/dev/null 2>&1 || need_pkgs+=(ibverbs-providers)
if ((${#need_pkgs[@]})); then
    [ $NO_FETCH = 0 ] || not_fetching "the host packages ${need_pkgs[*]}"
    [ "$(id -u)" = 0 ] || die "missing host packages: ${need_pkgs[*]} (run as root or: sudo apt-get install ${need_pkgs[*]})"
    log "installing host packages: ${need_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null 2>&1; then
        apt-get update -qq >/dev/null 2>&1 || true
        apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null \
            || die "apt-get install ${need_pkgs[*]} failed"
    fi
fi
PATH=$PATH:/sbin:/usr/sbin

mkdir -p "$CACHE" || die "cannot create cache dir $CACHE"
exec 9>"$CACHE/.lock"
flock 9 || die "cannot lock $CACHE/.lock"

# ---------------------------------------------------------------- kernel
resolve_pkg() {
    if [ -n "${RDMALAB_VM_KERNEL_PKG:-}" ]; then echo "$RDMALAB_VM_KERNEL_PKG"; return; fi
    # apt-cache takes ~1 s here; memoize on the apt lists' state.
    local stamp memo=$CACHE/.resolved-kernel-pkg pkg
    stamp=$(stat -c %Y /var/lib/apt/lists /var/lib/apt/lists/*Packages* 2>/dev/null | sort -n | tail -n1)
    if [ -n "$stamp" ] && [ -s "$memo" ] && [ "$(head -n1 "$memo")" = "$stamp" ]; then
        sed -n 2p "$memo"; return
    fi
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null \
        | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1)
    [ -n "$pkg" ] && [ -n "$stamp" ] && printf '%s\n%s\n' "$stamp" "$pkg" > "$memo"
    echo "$pkg"
}
PKG=$(resolve_pkg || true)
if [ -z "$PKG" ]; then
    # No apt lists?  Prefer an already cached kernel over touching the network.
    KVER=$(ls -1 "$CACHE" 2>/dev/null | grep -E '^[0-9]' | sort -V | tail -n1 || true)
    if [ -z "$KVER" ] || [ ! -s "$CACHE/$KVER/vmlinuz" ]; then
        [ $NO_FETCH = 0 ] || not_fetching "the VM's kernel (nothing in $CACHE)"
        [ "$(id -u)" = 0 ] && apt-get update -qq >/dev/null 2>&1 || true
        PKG=$(resolve_pkg || true)
        [ -n "$PKG" ] || die "cannot resolve the kernel package from linux-image-amd64 (apt-cache depends linux-image-amd64 gave nothing; run apt-get update)"
    fi
fi
[ -n "$PKG" ] && KVER=${PKG#linux-image-}
KDIR=$CACHE/$KVER

# The cached kernel serves when it has every module wanted (a cache made for a longer list serves too).
has_every_module() {
    local m
    for m in "${MODULES[@]}"; do
        grep -qw -- "$m" "$KDIR/modules.want" 2>/dev/null || return 1
    done
}
if [ ! -s "$KDIR/vmlinuz" ] || [ ! -s "$KDIR/modules.order" ] || ! has_every_module; then
    [ $NO_FETCH = 0 ] || not_fetching "the VM's kernel ${PKG:-} with the modules ${MODULES[*]} (in $KDIR)"
    [ -n "$PKG" ] || die "no kernel package name"
    log "fetching kernel $PKG into $KDIR (one-time)"
    tmp=$(mktemp -d "$CACHE/.build.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    chmod 0755 "$tmp"
    # The size, for the app's progress bar: it adds up the files in $tmp while apt-get downloads.
    size=$(apt-cache show --no-all-versions "$PKG" 2>/dev/null | awk '/^Size:/ { print $2; exit }' || true)
    log "downloading $PKG (${size:-0} bytes) into $tmp"
    ( cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$PKG" >/dev/null 2>&1 ) \
        || { [ "$(id -u)" = 0 ] && apt-get update -qq >/dev/null 2>&1 && ( cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$PKG" >/dev/null ); } \
        || die "apt-get download $PKG failed"
    deb=$(ls "$tmp"/*.deb) || die "no .deb downloaded for $PKG"
    log "unpacking $PKG and picking its RDMA modules"
    dpkg-deb -x "$deb" "$tmp/tree" || die "dpkg-deb -x $deb failed"
    rm -f "$deb"
    [ -d "$tmp/tree/lib/modules/$KVER" ] || die "package $PKG has no lib/modules/$KVER"
    depmod -b "$tmp/tree" "$KVER" || die "depmod failed for $KVER"
    mkdir -p "$tmp/out/modules"
    : > "$tmp/out/modules.order"
    for m in "${MODULES[@]}"; do
        deps=$(modprobe -d "$tmp/tree" -S "$KVER" --show-depends "$m") \
            || die "module $m not found in $PKG"
        while read -r verb path _; do
            [ "$verb" = insmod ] || continue   # 'builtin X' lines need nothing
            name=$(basename "$path")
            case $name in
                *.ko.xz)  name=${name%.xz};  [ -e "$tmp/out/modules/$name" ] || xz -dc "$path" > "$tmp/out/modules/$name" ;;
                *.ko.zst) name=${name%.zst}; [ -e "$tmp/out/modules/$name" ] || zstd -qdc "$path" > "$tmp/out/modules/$name" ;;
                *.ko.gz)  name=${name%.gz};  [ -e "$tmp/out/modules/$name" ] || gzip -dc "$path" > "$tmp/out/modules/$name" ;;
                *)        cp -n "$path" "$tmp/out/modules/$name" ;;
            esac
            grep -qxF "$name" "$tmp/out/modules.order" || echo "$name" >> "$tmp/out/modules.order"
        done <<<"$deps"
    done
    cp "$tmp/tree/boot/vmlinuz-$KVER" "$tmp/out/vmlinuz" || die "no vmlinuz in $PKG"
    echo "${MODULES[*]}" > "$tmp/out/modules.want"
    rm -rf "$KDIR"
    mv "$tmp/out" "$KDIR"
    rm -rf "$tmp"
    trap - EXIT
fi

# Uncompressed ELF vmlinux: QEMU boots it through the PVH entry point, which
# skips the real-mode setup + in-guest decompression (~4.5 s under TCG).
if [ ! -e "$KDIR/vmlinux" ] && [ ! -e "$KDIR/.no-pvh" ]; then
    k=$KDIR/vmlinuz; ok=0
    for fmt in 'xz:\xfd7zXZ\x00' 'zstd:\x28\xb5\x2f\xfd' 'gzip:\x1f\x8b\x08'; do
        off=$(LC_ALL=C grep -obUaP "${fmt#*:}" "$k" 2>/dev/null | head -n1 | cut -d: -f1 || true)
        [ -n "$off" ] || continue
        case ${fmt%%:*} in
            xz)   dec=(xz -dc --single-stream) ;;
            zstd) dec=(zstd -qdc) ;;
            gzip) dec=(gzip -dc) ;;
        esac
        tail -c +$((off + 1)) "$k" | "${dec[@]}" > "$KDIR/vmlinux.tmp" 2>/dev/null || true
        # PVH entry = Xen ELF note type 0x12 (XEN_ELFNOTE_PHYS32_ENTRY)
        notes=$(LC_ALL=C readelf -n "$KDIR/vmlinux.tmp" 2>/dev/null || true)
        if grep -q 'Xen.*0x00000012' <<<"$notes"; then
            mv "$KDIR/vmlinux.tmp" "$KDIR/vmlinux"; ok=1; break
        fi
    done
    rm -f "$KDIR/vmlinux.tmp"
    [ $ok = 1 ] || : > "$KDIR/.no-pvh"
fi
BOOTK=$KDIR/vmlinuz
[ -s "$KDIR/vmlinux" ] && BOOTK=$KDIR/vmlinux

# ---------------------------------------------------------------- initramfs
# Keyed on init script + hidden-path list + helper source + module list + busybox binary.
HOLD_SRC=$HERE/hold-sys-enter.c
KEY=$( { cat "$INIT_SRC" "$TMPFS_LIST" "$HOLD_SRC" "$KDIR/modules.order"; sha256sum /bin/busybox; } | sha256sum | cut -c1-16)
INITRD=$KDIR/initramfs-$KEY.cpio.gz
if [ ! -s "$INITRD" ]; then
    log "building initramfs $INITRD"
    tmp=$(mktemp -d "$CACHE/.initrd.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp"/{bin,sbin,etc,proc,sys,dev,ctl,mnt/root,lib/modules}
    cp /bin/busybox "$tmp/bin/busybox"; ln -s busybox "$tmp/bin/sh"
    cp "$INIT_SRC" "$tmp/init"
    gcc -static -O2 -o "$tmp/bin/hold-sys-enter" "$HOLD_SRC" || die "building hold-sys-enter (gcc -static) failed"
    chmod 0755 "$tmp/init" "$tmp/bin/busybox"
    cp "$KDIR"/modules/*.ko "$tmp/lib/modules/"
    cp "$KDIR/modules.order" "$tmp/etc/rdmalab-modules"
    cp "$TMPFS_LIST" "$tmp/etc/rdmalab-tmpfs"
    ( cd "$tmp" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 ) \
        | gzip -1 > "$INITRD.tmp" || die "cpio/gzip of initramfs failed"
    mv "$INITRD.tmp" "$INITRD"
    rm -rf "$tmp"
    trap - EXIT
    # drop stale initramfs images of this kernel
    for f in "$KDIR"/initramfs-*.cpio.gz; do [ "$f" = "$INITRD" ] || rm -f "$f"; done
fi

cat > "$CACHE/current.env.tmp" <<EOF
RDMALAB_VM_KVER=$KVER
RDMALAB_VM_KERNEL=$BOOTK
RDMALAB_VM_INITRD=$INITRD
EOF
mv "$CACHE/current.env.tmp" "$CACHE/current.env"
# Also print it (vm-run.sh reads stdout, so concurrent runs can't race on the file).
cat "$CACHE/current.env"
