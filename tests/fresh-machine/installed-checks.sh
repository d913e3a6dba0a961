# Run inside a root where the rdmalab .deb is installed (tests/fresh-machine/check.sh): both programs run
# from the installed paths, the app finds its engine and its lessons, and nothing comes from a build tree.
set -eu
cd /tmp
export QT_QPA_PLATFORM=offscreen
# As a desktop session would provide it (Qt warns on stderr without it).
export XDG_RUNTIME_DIR=/tmp/runtime-installed-checks
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
fail() { echo "installed-checks: FAILED: $*" >&2; exit 1; }
[ "$(command -v rdmalab-cli)" = /usr/bin/rdmalab-cli ] || fail "rdmalab-cli is not installed in /usr/bin"
[ "$(command -v rdmalab)" = /usr/bin/rdmalab ] || fail "rdmalab is not installed in /usr/bin"
cli_version=$(rdmalab-cli --version) || fail "rdmalab-cli --version exited $?"
echo "$cli_version"
case $cli_version in "rdmalab-cli "[0-9]*) ;; *) fail "rdmalab-cli --version printed '$cli_version'" ;; esac
app_version=$(rdmalab --version) || fail "rdmalab --version exited $?"
echo "$app_version"
case $app_version in "rdmalab "[0-9]*) ;; *) fail "rdmalab --version printed '$app_version'" ;; esac
# Live, with no RDMA device here: the app starts its engine (/usr/bin/rdmalab-cli serve --stdio), which
# answers that there is no device; a missing engine or missing lessons would say something else.
status=0
live=$(timeout 120 rdmalab --lesson write --autoplay --quit 2>&1) || status=$?
echo "$live" | grep -q "no RDMA device; cannot run the lesson live" ||
    fail "the installed app did not reach its engine (exit $status): $live"
# A replay of an installed recording, drawn and saved: the lessons are labs from /usr/share/rdmalab/labs.
timeout 120 rdmalab --lesson write --replay /usr/share/rdmalab/recordings/lesson-write.jsonl --autoplay \
    --screenshot /tmp/installed-replay.png --quit || fail "the installed app could not replay an installed recording"
[ -s /tmp/installed-replay.png ] || fail "no screenshot from the installed app"
echo "installed-checks: programs, engine, lessons and recordings found from the installed paths"
