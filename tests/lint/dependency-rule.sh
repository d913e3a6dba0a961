#!/usr/bin/env bash
# The dependency rule of docs/architecture.md, checked on a real build:
#   format ← labs ← labrun ← cli        format ← engine ← labrun        format + labs ← app
# 1. Every compiled object of a library reaches (through any chain of includes: the compiler's own
#    dependency lists, `ninja -t deps`) only headers of its own layer and of the layers below it. A header's
#    layer is its folder: engine/format/, labs/, engine/labrun/, engine/cli/, engine/ (the rest), app/.
# 2. Nothing in format, labs or app reaches a verbs or rdma_cm header; the app binary links no verbs library.
# 3. The top-level CMakeLists.txt adds the folders in the rule's order, and no folder's CMakeLists.txt links
#    a library of a layer above it.
# Usage: dependency-rule.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: dependency-rule.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
status=0
fail() {
  echo "dependency-rule: FAILED: $*" >&2
  status=1
}

deps=$(ninja -C "$build" -t deps 2>/dev/null)
# Each record starts "dir/CMakeFiles/TARGET.dir/....o: #deps N, ..." and lists its headers, indented.
build_abs=$(cd "$build" && pwd)
report=$(awk -v root="$root/" -v build="$build_abs/" '
  # Ninja records headers as the compiler named them: absolute, or relative to the build directory.
  function absolute(h,   changed) {
    if (h !~ /^\//) h = build h
    do { changed = gsub(/\/[^\/]+\/\.\.\//, "/", h) } while (changed)
    gsub(/\/\.\//, "/", h)
    return h
  }
  function layer_of_target(t) {
    if (t == "rdmalab_format" || t == "rdmalab_buildpaths") return "format"
    if (t == "rdmalab_labs") return "labs"
    if (t == "rdmalab_engine" || t == "bench_trace") return "engine"
    if (t == "rdmalab_labrun") return "labrun"
    if (t == "rdmalab_cli_options" || t == "rdmalab_serve" || t == "rdmalab-cli") return "cli"
    if (t ~ /^rdmalab_app/ || t == "rdmalab") return "app"
    return ""
  }
  function layer_of_header(h) {
    if (index(h, root) != 1) return ""
    h = substr(h, length(root) + 1)
    if (h ~ /^engine\/format\//) return "format"
    if (h ~ /^labs\//) return "labs"
    if (h ~ /^engine\/labrun\//) return "labrun"
    if (h ~ /^engine\/cli\//) return "cli"
    if (h ~ /^engine\//) return "engine"
    if (h ~ /^app\//) return "app"
    return ""
  }
  BEGIN {
    allowed["format"] = " format "
    allowed["labs"] = " format labs "
    allowed["engine"] = " format engine "
    allowed["labrun"] = " format labs engine labrun "
    allowed["cli"] = " format labs engine labrun cli "
    allowed["app"] = " format labs app "
    verbs_free["format"] = verbs_free["labs"] = verbs_free["app"] = 1
  }
  /^[^ ]/ {
    obj = $1; sub(/:$/, "", obj)
    target = obj; sub(/\.dir\/.*/, "", target); sub(/.*CMakeFiles\//, "", target)
    layer = layer_of_target(target)
    if (layer != "") objects[layer]++
    next
  }
  layer == "" { next }
  {
    h = $1
    if (verbs_free[layer] && (h ~ /\/infiniband\// || h ~ /\/rdma\/rdma_cma\.h$/ || h ~ /\/rdma\/rdma_verbs\.h$/))
      print "VIOLATION " obj " (" layer ") includes the verbs header " h
    hl = layer_of_header(absolute(h))
    if (hl != "" && index(allowed[layer], " " hl " ") == 0)
      print "VIOLATION " obj " (" layer ") includes " h " of the layer " hl
  }
  END { for (l in objects) print "OBJECTS " l " " objects[l] }
' <<<"$deps")

for layer in format labs engine labrun cli app; do
  grep -q "^OBJECTS $layer " <<<"$report" || fail "no compiled object of the layer $layer found in $build (built with Ninja?)"
done
if grep -q '^VIOLATION' <<<"$report"; then
  fail "includes against the rule:"
  grep '^VIOLATION' <<<"$report" | sed 's/^VIOLATION /  /' >&2
fi

app_binary="$build/app/rdmalab"
if [ -x "$app_binary" ]; then
  linked=$(readelf -d "$app_binary" | grep NEEDED | grep -E 'libibverbs|librdmacm' || true)
  [ -z "$linked" ] || fail "the app binary links: $linked"
fi

# 3. The folders in CMake: added in the rule's order, and each links only libraries of its layer or below.
order=$(grep -oE '^ *add_subdirectory\((engine/format|labs|engine|app)\)' "$root/CMakeLists.txt" |
  sed -E 's/.*\((.*)\)/\1/' | tr '\n' ' ')
[ "$order" = "engine/format labs engine app " ] ||
  fail "the top-level CMakeLists.txt adds '$order', not 'engine/format labs engine app '"
check_links() { # FOLDER_CMAKELISTS FORBIDDEN_TARGET...
  local file=$1
  shift
  for target in "$@"; do
    if grep -qE "target_link_libraries\(.*\b$target\b" "$root/$file"; then
      fail "$file links $target, a library of a layer above it"
    fi
  done
}
check_links engine/format/CMakeLists.txt rdmalab_labs rdmalab_engine rdmalab_labrun rdmalab_appmodel rdmalab_appui
check_links labs/CMakeLists.txt rdmalab_engine rdmalab_labrun rdmalab_appmodel rdmalab_appui
check_links engine/labrun/CMakeLists.txt rdmalab_appmodel rdmalab_appui
check_links app/model/CMakeLists.txt rdmalab_engine rdmalab_labrun rdmalab_serve rdmalab_cli_options
check_links app/CMakeLists.txt rdmalab_engine rdmalab_labrun rdmalab_serve rdmalab_cli_options

if [ $status -eq 0 ]; then
  echo "dependency-rule: $(grep '^OBJECTS' <<<"$report" | cut -d' ' -f2- | tr '\n' ',' | sed 's/,$//; s/,/, /g')" \
    "objects follow the rule; format, labs and app reach no verbs header; the app links no verbs library"
fi
exit $status
