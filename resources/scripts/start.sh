#!/usr/bin/env bash
# Sets everything up and starts rdmalab's main job: the desktop app, running the RDMA Write lesson on this
# machine's RDMA device. Without an RDMA device (and without rdma_rxe in the kernel) it runs the lesson for
# real inside the SoftRoCE test bed instead, headless, and saves the app's screenshot; with a display it then
# opens the app on a recording of that run, labelled as a replay.
set -euo pipefail
cd "$(dirname "$0")/../.."
resources/scripts/install-deps.sh
cmake --preset dev >/dev/null
cmake --build --preset dev --target rdmalab rdmalab-cli
lesson=${1:-write}
if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
  exec build/dev/app/rdmalab --lesson "$lesson"
fi
echo "start.sh: this machine has no RDMA device: running the '$lesson' lesson in the SoftRoCE test bed (qemu)"
# The whole checkout is the test bed's writable --out directory, mounted at its own path in the VM: the VM
# sees the host's / read-only, but mounts empty tmpfs over /tmp, /var/tmp and /run, so a checkout under
# /tmp would otherwise be invisible there (build/dev/... not found). The outputs go to build/start.
root=$(pwd -P)
out=$root/build/start
mkdir -p "$out"
tests/softroce/vm-run.sh --out "$root" -- sh -c "
  build/dev/engine/rdmalab-cli op $lesson --json --trace '$out/$lesson.jsonl' > /dev/null &&
  QT_QPA_PLATFORM=offscreen build/dev/app/rdmalab --lesson $lesson --autoplay --screenshot '$out/$lesson.png' --quit"
echo "start.sh: screenshot of the live lesson: $out/$lesson.png; recording: $out/$lesson.jsonl"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/dev/app/rdmalab --replay "$out/$lesson.jsonl"
fi
