#!/usr/bin/env bash
# Sets everything up and starts rdmalab's main job: the desktop app, running the RDMA Write lesson live.
# Where the engine runs is chosen in this order (docs/run-on-this-machine.md, docs/engine-in-a-vm.md):
#   1. local:    this machine has an RDMA port in state ACTIVE (a NIC, or a SoftRoCE device already made);
#   2. softroce: the kernel has rdma_rxe and an interface is up with an address: start.sh shows the two
#                commands that create a SoftRoCE device on it and runs them (with sudo unless root) only
#                if you answer yes; declined or failed, it goes on to 3;
#   3. vm:       the app boots the project's SoftRoCE VM itself (`rdmalab --engine vm`: Debian's kernel with
#                rdma_rxe under qemu, prepared once by tests/softroce/prepare.sh).
# Without a display (QT_QPA_PLATFORM=offscreen, or neither DISPLAY nor WAYLAND_DISPLAY set) it plays the
# lesson to the end headless and saves the app's screenshot, and never asks (so it never creates a device).
#
# usage: start.sh [LESSON]        (send, write or read; default write)
#        start.sh --which         print the choice and why, and stop (nothing installed, built or run)
# RDMALAB_SYSFS (default /sys) is where the RDMA ports are looked up (the tests give it a made-up tree).
set -euo pipefail
cd "$(dirname "$0")/../.."
SYSFS=${RDMALAB_SYSFS:-/sys}

# The first RDMA device with a port in state ACTIVE, or nothing.
active_device() {
    local state
    for state in "$SYSFS"/class/infiniband/*/ports/*/state; do
        [ -r "$state" ] || continue
        if grep -qx '[0-9]*: ACTIVE' "$state"; then
            echo "$state" | sed 's|.*/infiniband/\([^/]*\)/ports/.*|\1|'
            return
        fi
    done
}

# The first interface that is up and has a global IPv4 address (not lo: rdma_cm cannot resolve 127.0.0.1
# through an rxe device on lo), or nothing.
usable_interface() {
    ip -o -4 address show up scope global 2>/dev/null | awk '$2 != "lo" { print $2; exit }'
}

# Loaded, or loadable (modinfo finds it); a made-up RDMALAB_SYSFS tree alone decides.
kernel_has_rxe() {
    [ -d "$SYSFS/module/rdma_rxe" ] || { [ "$SYSFS" = /sys ] && modinfo rdma_rxe >/dev/null 2>&1; }
}

headless() {
    [ "${QT_QPA_PLATFORM:-}" = offscreen ] || [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]
}

# Prints "CHOICE: reason" on one line.
choose() {
    local dev iface
    dev=$(active_device)
    if [ -n "$dev" ]; then
        echo "local: $dev has a port in state ACTIVE"
    elif kernel_has_rxe && iface=$(usable_interface) && [ -n "$iface" ]; then
        echo "softroce: no ACTIVE RDMA port, but the kernel has rdma_rxe and $iface is up with an address"
    elif kernel_has_rxe; then
        echo "vm: the kernel has rdma_rxe, but no interface other than lo is up with an address"
    else
        echo "vm: no ACTIVE RDMA port, and this kernel has no rdma_rxe module"
    fi
}

if [ "${1:-}" = --which ]; then
    choose
    exit 0
fi

resources/scripts/install-deps.sh
# The compiler cache (when installed) hashes paths relative to this checkout, so a clone anywhere reuses it.
export CCACHE_BASEDIR=$(pwd -P) CCACHE_NOHASHDIR=true
cmake --preset dev >/dev/null
cmake --build --preset dev --target rdmalab rdmalab-cli
lesson=${1:-write}
choice=$(choose)
echo "start.sh: ${choice}"

if [ "${choice%%:*}" = softroce ]; then
    iface=$(usable_interface)
    echo "start.sh: a SoftRoCE device on $iface needs root once; these two commands make it:"
    echo "    modprobe rdma_rxe"
    echo "    rdma link add rxe_$iface type rxe netdev $iface"
    answer=n
    if ! headless && [ -t 0 ]; then
        read -r -p "start.sh: run them now$([ "$(id -u)" -ne 0 ] && echo ' with sudo')? [y/N] " answer || answer=n
    fi
    if [[ $answer == [yY]* ]]; then
        as_root=()
        [ "$(id -u)" -ne 0 ] && as_root=(sudo)
        if "${as_root[@]}" modprobe rdma_rxe && "${as_root[@]}" rdma link add "rxe_$iface" type rxe netdev "$iface"; then
            sleep 1 # the port turns ACTIVE once the device is registered
            [ -n "$(active_device)" ] && choice="local: rxe_$iface created on $iface"
        else
            echo "start.sh: creating the SoftRoCE device failed (above); using the SoftRoCE VM instead" >&2
        fi
    else
        echo "start.sh: not creating it (run the commands yourself to use it); using the SoftRoCE VM instead"
    fi
    [ "${choice%%:*}" = local ] || choice="vm: the SoftRoCE device was not created"
fi

if [ "${choice%%:*}" = local ]; then
    if headless; then
        out=$(pwd -P)/build/start
        mkdir -p "$out"
        QT_QPA_PLATFORM=offscreen build/dev/app/rdmalab --lesson "$lesson" --autoplay \
            --screenshot "$out/$lesson.png" --quit
        echo "start.sh: the '$lesson' lesson ran live on this machine's device; the app's screenshot: $out/$lesson.png"
        exit 0
    fi
    exec build/dev/app/rdmalab --lesson "$lesson"
fi

echo "start.sh: the app boots the SoftRoCE VM (qemu) and runs the '$lesson' lesson live in it"
# The VM's kernel and initramfs (one-time download of Debian's kernel; quick when they are cached). The app
# boots the VM itself and sees this checkout's build from inside it, wherever the checkout lies (a checkout
# under /tmp or /root is shared with the VM read-only, as the guest hides those paths under tmpfs of its own:
# tests/softroce/guest-tmpfs.list).
tests/softroce/prepare.sh >/dev/null
if headless; then
    out=$(pwd -P)/build/start
    mkdir -p "$out"
    QT_QPA_PLATFORM=offscreen build/dev/app/rdmalab --engine vm --lesson "$lesson" --autoplay \
        --screenshot "$out/$lesson.png" --quit
    echo "start.sh: the '$lesson' lesson ran live on rxe0 in the SoftRoCE VM; the app's screenshot: $out/$lesson.png"
    exit 0
fi
exec build/dev/app/rdmalab --engine vm --lesson "$lesson"
