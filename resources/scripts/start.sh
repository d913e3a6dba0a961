#!/usr/bin/env bash
# Sets everything up and starts rdmalab's main job: the desktop app, running the RDMA Write lesson on this
# machine's RDMA device. Without an RDMA device (and without rdma_rxe in the kernel) the app runs the lesson
# live inside the SoftRoCE VM it boots itself (`rdmalab --engine vm`: Debian's kernel with rdma_rxe under qemu,
# prepared once by tests/softroce/prepare.sh). Without a display (QT_QPA_PLATFORM=offscreen, or neither
# DISPLAY nor WAYLAND_DISPLAY set) it plays the lesson to the end headless and saves the app's screenshot.
set -euo pipefail
cd "$(dirname "$0")/../.."
resources/scripts/install-deps.sh
cmake --preset dev >/dev/null
cmake --build --preset dev --target rdmalab rdmalab-cli
lesson=${1:-write}
if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
  exec build/dev/app/rdmalab --lesson "$lesson"
fi
echo "start.sh: this machine has no RDMA device: the app boots the SoftRoCE VM (qemu) and runs the '$lesson' lesson live in it"
# The VM's kernel and initramfs (one-time download of Debian's kernel; quick when they are cached). The app
# boots the VM itself and sees this checkout's build from inside it, wherever the checkout lies (a checkout
# under /tmp is shared with the VM read-only, as the guest mounts its own tmpfs there).
tests/softroce/prepare.sh >/dev/null
if [ "${QT_QPA_PLATFORM:-}" = offscreen ] || [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  out=$(pwd -P)/build/start
  mkdir -p "$out"
  QT_QPA_PLATFORM=offscreen build/dev/app/rdmalab --engine vm --lesson "$lesson" --autoplay \
    --screenshot "$out/$lesson.png" --quit
  echo "start.sh: the '$lesson' lesson ran live on rxe0 in the SoftRoCE VM; the app's screenshot: $out/$lesson.png"
  exit 0
fi
exec build/dev/app/rdmalab --engine vm --lesson "$lesson"
