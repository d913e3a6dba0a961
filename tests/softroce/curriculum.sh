#!/bin/sh
# Runs inside the SoftRoCE VM: every lab of labs/ with the dev build, every expectation held, and the
# kernel's RDMA resource counts the same before and after (a lab that leaves an object behind is a bug).
# About 30 s in the VM. device-tests.sh runs it on the test bed's default kernel (Linux 6.1), and
# tests/run-all.sh once more on Linux 6.12, where rxe differs (rkeys, flushed completions): a lab whose
# kernel-dependent expectation or text is written for one kernel only fails on the other.
export RDMALAB_REQUIRE_DEVICE=1
status=0
echo "---- labs (dev build, Linux $(uname -r)): rdmalab-cli lab run --all"
rdma -j resource show >build/labs-resources-before.json
build/dev/engine/rdmalab-cli lab run --all || status=1
rdma -j resource show >build/labs-resources-after.json
if cmp -s build/labs-resources-before.json build/labs-resources-after.json; then
  echo "---- labs: rdma resource counts equal before and after"
else
  echo "---- labs: rdma resource counts DIFFER before and after:"
  diff build/labs-resources-before.json build/labs-resources-after.json
  status=1
fi
exit $status
