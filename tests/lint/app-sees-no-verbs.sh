#!/usr/bin/env bash
# The dependency rule, checked on a real build: nothing compiled for the app (app/model, app/ui, the app's
# main) includes a verbs or rdma_cm header, directly or through an engine header, and the app's binary
# does not link libibverbs or librdmacm. Reads the compiler's own dependency lists (ninja -t deps), so a
# header reached through any chain of includes counts. Usage: app-sees-no-verbs.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: app-sees-no-verbs.sh BUILD_DIR}

deps=$(ninja -C "$build" -t deps 2>/dev/null)
# Object files of the app's targets: "path/to/x.cpp.o: #deps N, ..." starts each record.
app_objects=$(grep -E '^app/(model/)?CMakeFiles/(rdmalab_appmodel|rdmalab_appui|rdmalab)\.dir/.*\.o:' <<<"$deps" |
  cut -d: -f1 || true)
count=$(wc -w <<<"$app_objects")
if [ "$count" -eq 0 ]; then
  echo "app-sees-no-verbs: no compiled app objects found in $build (is the app built with Ninja?)" >&2
  exit 1
fi

status=0
# One record per object: its header lines follow, indented, until the next unindented line.
offenders=$(awk '
  /^[^ ]/ { obj = $1; sub(/:$/, "", obj); app = (obj ~ /^app\/(model\/)?CMakeFiles\/(rdmalab_appmodel|rdmalab_appui|rdmalab)\.dir\//); next }
  app && ($1 ~ /\/infiniband\// || $1 ~ /\/rdma\/rdma_cma\.h$/ || $1 ~ /\/rdma\/rdma_verbs\.h$/) { print obj " includes " $1 }
' <<<"$deps")
if [ -n "$offenders" ]; then
  echo "app-sees-no-verbs: FAILED: app sources reach verbs headers:" >&2
  echo "$offenders" >&2
  status=1
fi

app_binary="$build/app/rdmalab"
if [ -x "$app_binary" ]; then
  linked=$(readelf -d "$app_binary" | grep NEEDED | grep -E 'libibverbs|librdmacm' || true)
  if [ -n "$linked" ]; then
    echo "app-sees-no-verbs: FAILED: the app binary links: $linked" >&2
    status=1
  fi
fi
[ $status -eq 0 ] && echo "app-sees-no-verbs: $count app objects include no verbs header; the app links no verbs library"
exit $status
