#!/usr/bin/env bash
# The fresh-machine check: what a brand-new Debian 12 machine does with this checkout.
#
#  1. A minimal Debian 12 root (debootstrap --variant=minbase, the mirror and suites taken from this
#     machine's own apt sources) runs resources/scripts/install-deps.sh, configures and builds the
#     `dev` preset, and passes the host tests. The checkout is mounted at its own path inside the root,
#     so the build lands in build/dev as usual.
#  2. The .deb (cpack -G DEB) is built there and installed into that root with `apt-get install ./…`;
#     `man rdmalab-cli` and `man rdmalab` must show every command and option, and
#     desktop-file-validate must pass on the installed desktop entry.
#  3. The same .deb is installed into an untouched minimal root, where apt must pull every run-time
#     dependency from the package's own Depends; there both programs run from the installed paths
#     (`--version`), and the app replays an installed recording offscreen and saves a screenshot, which
#     needs its installed lessons and nothing from the build tree.
#
# A package missing from install-deps.sh makes step 1 fail; a dependency missing from the .deb makes
# step 3 fail.
#
# Caching (in ${RDMALAB_FRESH_CACHE:-$HOME/.cache/rdmalab/fresh}): the minimal root, keyed by the suite
# and mirror; the root after install-deps.sh, keyed by the script's content, so any change to the
# package list starts again from the minimal root; the downloaded .debs (apt verifies them); and the dev
# build's ccache directory (objects only, so a warm cache changes no verdict, only the time).
# Each run works on a throw-away overlay over a cached root, so no run changes a cached root.
#
# usage: tests/fresh-machine/check.sh [--log-dir DIR] [--prepare-only]
#   --prepare-only  make the two cached roots (debootstrap, install-deps.sh in the root) and stop: mostly
#                   downloads and unpacking, which tests/run-all.sh does beside its first builds when the
#                   cache is cold.
# Needs root (chroot, mounts) and debootstrap. Exit status 0 when every step held.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$HERE/../.." && pwd -P)
PROG=fresh-machine
CACHE=${RDMALAB_FRESH_CACHE:-$HOME/.cache/rdmalab/fresh}
CCACHE_HOST_DIR=${CCACHE_DIR:-$CACHE/ccache}
LOGS=$SRC/build
PREPARE_ONLY=0
while (($#)); do
    case $1 in
        --log-dir) LOGS=$2; shift 2 ;;
        --prepare-only) PREPARE_ONLY=1; shift ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$PROG: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

step() { printf '\n---- %s: %s\n' "$PROG" "$*"; }
die() { printf '\n%s: FAILED: %s\n' "$PROG" "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mounts); run it with sudo"
command -v debootstrap >/dev/null || die "debootstrap is missing: run resources/scripts/install-deps.sh"
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
    die "the kernel has no overlay file system (needed for throw-away roots)"
mkdir -p "$CACHE" "$CACHE/archives/partial" "$LOGS" || die "cannot create $CACHE or $LOGS"
exec 8>"$CACHE/.lock"
flock 8 || die "cannot lock $CACHE/.lock"

# ------------------------------------------------------------------ the mirror, from this machine
# The first Debian archive source that carries the plain suite (not -updates, not -security).
mirror_and_suite() {
    local f uris suites
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # deb822: paragraphs of "Key: value"; take the first with a plain suite name.
        awk 'BEGIN{RS=""; FS="\n"} {u=""; s=""; for(i=1;i<=NF;i++){ if($i ~ /^URIs:/){sub(/^URIs:[ \t]*/,"",$i); u=$i} if($i ~ /^Suites:/){sub(/^Suites:[ \t]*/,"",$i); s=$i} } n=split(s,a," "); for(j=1;j<=n;j++) if(a[j] !~ /-/ && u!=""){split(u,b," "); print b[1], a[j]; exit} }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk '$1=="deb" && $3 !~ /-/ {u=$2; if(u ~ /^\[/){u=$3; s=$4} else s=$3; print u, s; exit}' "$f"
    done
}
read -r MIRROR SUITE < <(mirror_and_suite | head -n1)
[ -n "${MIRROR:-}" ] && [ -n "${SUITE:-}" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d}"
[ "$SUITE" = bookworm ] || echo "$PROG: note: this machine's suite is '$SUITE' (the project targets Debian 12, bookworm)"

key() { sha256sum | cut -c1-16; }
BASE_KEY=$(printf '%s %s minbase %s\n' "$MIRROR" "$SUITE" "$(dpkg-query -W -f='${Version}' debootstrap)" | key)
DEPS_KEY=$( { echo "$BASE_KEY"; cat "$SRC/resources/scripts/install-deps.sh"; } | key)
BASE=$CACHE/base-$BASE_KEY
DEPS=$CACHE/deps-$DEPS_KEY

# ------------------------------------------------------------------ mounts, always undone
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rdmalab-fresh.XXXXXX") || die "mktemp failed"
MOUNTED=() # mount points, undone in reverse order
cleanup() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount -R "${MOUNTED[i]}" 2>/dev/null || umount -lR "${MOUNTED[i]}" 2>/dev/null
    done
    # Never delete through a mount: refuse if anything under WORK is still mounted.
    if ! grep -q " $WORK/" /proc/self/mounts; then rm -rf --one-file-system "$WORK"; fi
}
trap cleanup EXIT
trap 'echo "$PROG: interrupted" >&2; exit 130' INT TERM

# Mounts what a program in the root needs (proc, sys, dev, this machine's DNS) and, with a second
# argument, the checkout at its own path.
enter_prepare() {
    local root=$1 with_checkout=${2:-}
    mount -t proc proc "$root/proc" && MOUNTED+=("$root/proc") || return 1
    mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" && MOUNTED+=("$root/sys") || return 1
    mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && MOUNTED+=("$root/dev") || return 1
    mount -t tmpfs tmpfs "$root/tmp" && MOUNTED+=("$root/tmp") || return 1
    mkdir -p "$root/var/cache/apt/archives"
    mount --bind "$CACHE/archives" "$root/var/cache/apt/archives" && MOUNTED+=("$root/var/cache/apt/archives") || return 1
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    if [ -n "$with_checkout" ]; then
        mkdir -p "$root$SRC"
        mount --bind "$SRC" "$root$SRC" && MOUNTED+=("$root$SRC") || return 1
        # The build's compiler cache outlives the throw-away root (it holds objects, never packages), so a
        # second run rebuilds only what changed; CCACHE_BASEDIR lets any clone's path hit it. It is
        # this machine's own ($CCACHE_DIR, which tests/run-all.sh sets for every build), so the root's
        # build and the host's warm each other: the same compiler package compiles the same text.
        mkdir -p "$CCACHE_HOST_DIR" "$root/var/cache/rdmalab-ccache"
        mount --bind "$CCACHE_HOST_DIR" "$root/var/cache/rdmalab-ccache" &&
            MOUNTED+=("$root/var/cache/rdmalab-ccache") || return 1
    fi
}
# Runs a shell command inside the root as root, with a clean environment like a new login.
in_root() {
    local root=$1; shift
    chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        /bin/bash -c "$*"
}
# A throw-away overlay over a cached root, mounted at ROOT (not printed: a command substitution would
# run this in a subshell, and the mount would never reach MOUNTED, so never be undone).
overlay_on() {
    local lower=$1 name=$2
    mkdir -p "$WORK/$name/upper" "$WORK/$name/work" "$WORK/$name/root"
    mount -t overlay overlay -o "lowerdir=$lower,upperdir=$WORK/$name/upper,workdir=$WORK/$name/work" \
        "$WORK/$name/root" || return 1
    MOUNTED+=("$WORK/$name/root")
    ROOT=$WORK/$name/root
}
unmount_all() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount -R "${MOUNTED[i]}" || return 1; done
    MOUNTED=()
}

t0=$(date +%s)
# ------------------------------------------------------------------ the minimal root (cached)
if [ ! -d "$BASE" ]; then
    step "debootstrap --variant=minbase $SUITE (from this machine's mirror; cached as $(basename "$BASE"))"
    tmp=$CACHE/.base-tmp
    rm -rf --one-file-system "$tmp"
    debootstrap --variant=minbase "$SUITE" "$tmp" "$MIRROR" >"$LOGS/fresh-debootstrap.log" 2>&1 ||
        { tail -n 20 "$LOGS/fresh-debootstrap.log" >&2; die "debootstrap failed (log: $LOGS/fresh-debootstrap.log)"; }
    # The same sources as this machine (updates and security too), so the root's packages match its.
    rm -f "$tmp/etc/apt/sources.list"
    cp /etc/apt/sources.list "$tmp/etc/apt/" 2>/dev/null || true
    for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && cp "$f" "$tmp/etc/apt/sources.list.d/"
    done
    rm -rf "$tmp/var/cache/apt/archives"/*.deb
    mv "$tmp" "$BASE" || die "cannot move the new root into the cache"
    # Older roots of other keys are dead weight.
    for old in "$CACHE"/base-*; do [ "$old" = "$BASE" ] || rm -rf --one-file-system "$old"; done
fi

# ------------------------------------------------------------------ the root after install-deps.sh (cached)
if [ ! -d "$DEPS" ]; then
    step "install-deps.sh in the minimal root (package list changed or first run; cached as $(basename "$DEPS"))"
    tmp=$CACHE/.deps-tmp
    rm -rf --one-file-system "$tmp"
    cp -a --reflink=auto "$BASE" "$tmp" || die "cannot copy the minimal root"
    enter_prepare "$tmp" checkout || die "cannot mount into the root"
    in_root "$tmp" "cd '$SRC' && resources/scripts/install-deps.sh" 2>&1 | tee "$LOGS/fresh-install-deps.log"
    status=${PIPESTATUS[0]}
    unmount_all || die "cannot unmount $tmp"
    [ "$status" -eq 0 ] || die "resources/scripts/install-deps.sh failed in a minimal Debian root"
    rm -f "$tmp/etc/resolv.conf"
    mv "$tmp" "$DEPS" || die "cannot move the root into the cache"
    for old in "$CACHE"/deps-*; do [ "$old" = "$DEPS" ] || rm -rf --one-file-system "$old"; done
fi

if [ "$PREPARE_ONLY" -eq 1 ]; then
    printf '\n%s: the roots are ready in %ss (%s, %s)\n' "$PROG" "$(($(date +%s) - t0))" "$(basename "$BASE")" "$(basename "$DEPS")"
    exit 0
fi

# ------------------------------------------------------------------ 1. build and host tests
step "1. in a minimal Debian 12 root with only install-deps.sh's packages: install-deps, build (dev), host tests"
overlay_on "$DEPS" build || die "cannot mount an overlay (lower $DEPS)"
enter_prepare "$ROOT" checkout || die "cannot mount into the root"
in_root "$ROOT" "cd '$SRC' && resources/scripts/install-deps.sh" || die "install-deps.sh failed in the root"
in_root "$ROOT" "export CCACHE_DIR=/var/cache/rdmalab-ccache CCACHE_BASEDIR='$SRC' CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
    cd '$SRC' && cmake --preset dev >/dev/null && cmake --build --preset dev && { ccache -s | grep -E 'Hits|Misses' || true; }" ||
    die "the dev preset does not configure or build on a minimal Debian 12 root with install-deps.sh's packages"
in_root "$ROOT" "cd '$SRC' && ctest --preset dev -j2 -L host" 2>&1 | tee "$LOGS/fresh-host-dev.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || die "host tests failed in the minimal root (log: $LOGS/fresh-host-dev.log)"

# ------------------------------------------------------------------ 2. package, install in the same root
step "2. cpack -G DEB, then apt-get install ./rdmalab_*.deb in the same root"
rm -rf "$SRC/build/package"
in_root "$ROOT" "cd '$SRC/build/dev' && cpack -G DEB -B '$SRC/build/package' >/dev/null" ||
    die "cpack -G DEB failed"
DEB=$(ls "$SRC"/build/package/rdmalab_*.deb 2>/dev/null | head -n1)
[ -n "$DEB" ] || die "cpack made no rdmalab_*.deb in build/package"
echo "package: $(basename "$DEB") ($(du -h "$DEB" | cut -f1))"
dpkg-deb -f "$DEB" Depends | sed 's/^/Depends: /'
in_root "$ROOT" "cd '$SRC/build/package' && apt-get install -y -qq --no-install-recommends './$(basename "$DEB")' >/dev/null" ||
    die "apt-get install ./$(basename "$DEB") failed in the build root"
in_root "$ROOT" "$(cat "$HERE/installed-checks.sh")" || die "the installed package fails its checks in the build root"
in_root "$ROOT" "$(cat "$HERE/installed-docs-checks.sh")" || die "man pages or desktop entry fail their checks"
unmount_all || die "cannot unmount the build root"

# ------------------------------------------------------------------ 3. install into an untouched root
step "3. apt-get install ./$(basename "$DEB") into an untouched minimal root: the package's Depends must suffice"
overlay_on "$BASE" install || die "cannot mount an overlay (lower $BASE)"
enter_prepare "$ROOT" || die "cannot mount into the root"
cp "$DEB" "$ROOT/tmp/" || die "cannot copy the package into the root"
in_root "$ROOT" "apt-get update -qq && apt-get install -y -qq --no-install-recommends '/tmp/$(basename "$DEB")' >/dev/null" ||
    die "apt-get install ./$(basename "$DEB") failed in an untouched minimal root"
in_root "$ROOT" "$(cat "$HERE/installed-checks.sh")" ||
    die "the installed programs do not run in a root that has only the package's dependencies"
unmount_all || die "cannot unmount the install root"

printf '\n%s: OK in %ss (dev build and host tests in a minimal root, .deb installed and run in two roots)\n' \
    "$PROG" "$(($(date +%s) - t0))"
