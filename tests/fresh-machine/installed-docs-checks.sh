# Run inside the build root after the .deb is installed (tests/fresh-machine/check.sh): the installed man
# pages show every command and option the programs' own help lists, and the desktop entry validates.
set -eu
fail() { echo "installed-docs-checks: FAILED: $*" >&2; exit 1; }
export MANWIDTH=200
man_cli=$(man rdmalab-cli 2>/dev/null | sed "s/.\x08//g") || fail "man rdmalab-cli"
man_app=$(man rdmalab 2>/dev/null | sed "s/.\x08//g") || fail "man rdmalab"
# Every option and command the programs' help names must be in their man page.
for opt in $(rdmalab-cli --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$opt" <<<"$man_cli" || fail "man rdmalab-cli lacks $opt"
done
for cmd in devices op bench serve; do
    grep -qw -- "$cmd" <<<"$man_cli" || fail "man rdmalab-cli lacks the command $cmd"
done
for opt in $(QT_QPA_PLATFORM=offscreen rdmalab --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$opt" <<<"$man_app" || fail "man rdmalab lacks $opt"
done
desktop-file-validate /usr/share/applications/rdmalab.desktop || fail "desktop-file-validate"
[ -f /usr/share/icons/hicolor/scalable/apps/rdmalab.svg ] || fail "no icon"
echo "installed-docs-checks: man pages complete, desktop entry valid"
