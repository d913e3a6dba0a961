#!/bin/bash
# Runs in the background inside the SoftRoCE VM while the device tests run: once a program a test started
# (rdmalab-cli, rdmalab) has run longer than $1 seconds (default 90), prints where each of its threads is
# (kernel stack, wait channel, user stack through gdb), once per process. A hang then shows in the log
# of the run that had it, CI's included, instead of only as a timeout.
limit=${1:-90}
declare -A reported
while sleep 10; do
  # The program itself (the command line's first word) is rdmalab's, not merely named in the arguments.
  # A test process runs all of its suite's functions and is stopped by its own per-function time limit
  # (QTEST_FUNCTION_TIMEOUT), where Qt Test prints its stack.
  for pid in $(pgrep -f '^[^ ]*(rdmalab-cli|/rdmalab)( |$)'); do
    [ -n "${reported[$pid]:-}" ] && continue
    age=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
    [ -n "$age" ] && [ "$age" -gt "$limit" ] || continue
    reported[$pid]=1
    echo "==== hang report: pid $pid has run ${age}s: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
    for t in /proc/"$pid"/task/*; do
      echo "-- thread ${t##*/} $(cat "$t/comm" 2>/dev/null) $(grep '^State' "$t/status" 2>/dev/null)" \
        "wchan=$(cat "$t/wchan" 2>/dev/null)"
      sed 's/^/   /' "$t/stack" 2>/dev/null
    done
    if command -v gdb >/dev/null; then
      timeout 60 gdb -batch -nx -p "$pid" -ex 'thread apply all bt 12' 2>/dev/null |
        grep -E '^(Thread|#)' | head -80
    fi
  done
done
