// Runs in the SoftRoCE test VM for its whole life (started by guest-init.sh): holds one perf event on
// the raw_syscalls:sys_enter tracepoint, counting only this process, which sleeps.
//
// Why: rdmalab counts system calls with a perf event on that tracepoint. The first such event in the
// kernel registers the tracepoint and the last one unregisters it, and both rewrite kernel code
// (jump labels) while the other vCPU runs. Under QEMU TCG that sometimes left a vCPU stuck for good
// at the patched site in syscall_trace_enter (seen with the QEMU monitor: RIP unchanged for minutes),
// which froze the guest mid-test. With this event open from boot, rdmalab's events only change a
// reference count and no code is rewritten. Every system call in the VM then takes the tracepoint's
// slow path, which costs all programs alike.
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char** argv) {
    const char* id_path = argc > 1 ? argv[1] : "/sys/kernel/tracing/events/raw_syscalls/sys_enter/id";
    FILE* f = fopen(id_path, "r");
    long id = -1;
    if (!f || fscanf(f, "%ld", &id) != 1) {
        fprintf(stderr, "hold-sys-enter: cannot read %s\n", id_path);
        return 1;
    }
    fclose(f);
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.size = sizeof attr;
    attr.config = (unsigned long long)id;
    if (syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0) < 0) {
        perror("hold-sys-enter: perf_event_open(raw_syscalls:sys_enter)");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    for (;;)
        pause();
}
