#!/usr/bin/env bash
# Renders Wireshark's own window on a pcapng that rdmalab exported (docs/wire.md's screenshot): Wireshark
# on a virtual X display (Xvfb) at 1280x720, the packet list with a column for each packet's comment (the
# work request rdmalab tied it to), one packet selected, the screen saved as PNG.
# Needs the docs packages: resources/scripts/install-deps.sh --docs (wireshark-qt, xvfb, x11-utils, xdotool, imagemagick).
# Usage: resources/scripts/wireshark-screenshot.sh CAPTURE.pcapng PACKET OUT.png
set -euo pipefail
capture=${1:?usage: wireshark-screenshot.sh CAPTURE.pcapng PACKET OUT.png}
packet=${2:?usage: wireshark-screenshot.sh CAPTURE.pcapng PACKET OUT.png}
out=${3:?usage: wireshark-screenshot.sh CAPTURE.pcapng PACKET OUT.png}
for tool in Xvfb wireshark xwininfo xdotool import; do
  command -v "$tool" >/dev/null || { echo "wireshark-screenshot: $tool is missing: run resources/scripts/install-deps.sh --docs" >&2; exit 1; }
done
capture=$(realpath "$capture")
out=$(realpath -m "$out")

# A display no X server holds, and a profile of our own so the user's Wireshark settings stay untouched.
display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
home=$(mktemp -d)
cleanup() { kill "${shark:-}" "${xvfb:-}" 2>/dev/null || true; rm -rf "$home"; }
trap cleanup EXIT
Xvfb ":$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done

# The window fills the screen (there is no window manager to maximise it); the bytes pane is hidden so
# the decoded tree has the room.
mkdir -p "$home/.config/wireshark"
cat > "$home/.config/wireshark/recent" <<EOF
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: 1280
gui.geometry_main_height: 720
gui.geometry_main_maximized: FALSE
gui.byte_view_show: FALSE
gui.geometry_main_upper_pane: 275
column.width: %m, 48, %t, 88, %s, 95, %d, 95, %p, 60, %L, 58, %i, 255, %Cus:frame.comment:0:R, 600
EOF
# Columns: number, time, source, destination, protocol, length, the info line, then the comment.
columns='"No.","%m","Time","%t","Source","%s","Destination","%d","Protocol","%p","Length","%L","Info","%i","rdmalab (packet comment)","%Cus:frame.comment:0:R"'
HOME=$home XDG_CONFIG_HOME=$home/.config DISPLAY=":$display" wireshark -r "$capture" -g "$packet" \
  -o "gui.column.format:$columns" -o "gui.geometry.main.maximized:TRUE" \
  -o "gui.update.enabled:FALSE" -o "gui.welcome_page.show_recent:FALSE" >/dev/null 2>&1 &
shark=$!
# Wireshark has drawn the file once its window title names it.
for _ in $(seq 300); do
  DISPLAY=":$display" xwininfo -root -tree 2>/dev/null | grep -q "$(basename "$capture")" && break
  sleep 0.2
done
sleep 2
detail_top=$((275 + 100)) # the menu, the toolbars and the filter bar above the packet list
# The details pane: the packet's comment opened, then the InfiniBand header with all its subtrees (BTH,
# RETH...), by keyboard from the first row. (A click gives the pane the focus: with no window manager there
# is no window activation.)
DISPLAY=":$display" xdotool mousemove 200 $((detail_top + 8)) click 1 key Home Right Down Down Down Down Down Down shift+Right >/dev/null 2>&1 || true
sleep 1
DISPLAY=":$display" import -window root "$out"
echo "wireshark-screenshot: $out"
