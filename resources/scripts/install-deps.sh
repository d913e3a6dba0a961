#!/usr/bin/env bash
# Installs rdmalab's build, run and test dependencies from Debian 12 packages. Idempotent: installs only
# what is missing, so a second run does nothing and needs no network.
# --docs also installs what only the documentation's tools need (resources/scripts/wireshark-screenshot.sh:
# Wireshark's window on a virtual X display); building, running and testing never need them.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config clang-format clang-tidy ccache
  # fuzzing (tests/fuzz: libFuzzer is in clang's runtime package)
  clang libclang-rt-14-dev
  # engine
  libibverbs-dev librdmacm-dev rdma-core ibverbs-providers libfmt-dev nlohmann-json3-dev
  # app and labs
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libyaml-cpp-dev libgl-dev fonts-dejavu-core fonts-wqy-microhei
  # translations: lupdate and lrelease (qt6-l10n-tools), their CMake package Qt6LinguistTools (qt6-tools-dev)
  qt6-l10n-tools qt6-tools-dev
  # the lab report opened in a real browser (tests: headless Chromium renders it and shows every verdict)
  chromium
  # tools the tests and benchmarks call
  ibverbs-utils rdmacm-utils perftest sockperf iperf3 iproute2 util-linux
  # packaging: the .deb (dependencies computed by dpkg-shlibdeps), its desktop entry and man pages
  dpkg-dev file desktop-file-utils man-db
  # the fresh-machine check (a minimal Debian 12 root)
  debootstrap
  # the SoftRoCE test bed
  qemu-system-x86 busybox-static kmod cpio zstd xz-utils
  # the wire: capture in the engine (libpcap), and the reference tools a capture is checked against
  # (tcpdump, and tshark, Wireshark's dissectors on the command line)
  libpcap-dev tcpdump tshark
  # the engine on another host (rdmalab --engine ssh://HOST): the ssh client; the test bed's SSH server is
  # dropbear-bin, which brings no service (openssh-server would start an sshd on this machine)
  openssh-client dropbear-bin
)

if [ "${1:-}" = --docs ]; then
  packages+=(wireshark-qt xvfb x11-utils xdotool imagemagick)
elif [ $# -gt 0 ]; then
  echo "usage: install-deps.sh [--docs]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
