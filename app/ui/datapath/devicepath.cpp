#include "devicepath.h"

namespace rdmalab::app::datapath {

namespace {

// Checked against rdma-core (providers/rxe/rxe.c: post_send writes the WQE into the send ring mmapped from
// the kernel, then post_send_db write()s IB_USER_VERBS_CMD_POST_SEND on the uverbs fd; post_recv and poll_cq
// touch only their shared rings; providers/mlx5/qp.c: post_send_db updates the doorbell record and writes
// the UAR page, a receive only its doorbell record) and Linux 6.1 drivers/infiniband/sw/rxe (rxe_req.c and
// rxe_resp.c copy payloads with memcpy through the MR's pages, rxe_comp.c posts the CQE into the shared
// ring, rxe_net.c hands a packet addressed to its own interface straight to rxe_rcv instead of a netdev).
constexpr PathStory kHardware{
    .kernelTitle = "Kernel (ib_uverbs: control path only)",
    .kernelNote = "",
    .deviceTitle = "RNIC · %1",
    .deviceUnnamed = "RNIC",
    .deviceInKernel = false,
    .dataLane = "data path: bypasses the kernel",
    .doorbellLane = "",
    .doorbellTitle = "doorbell (MMIO)",
    .cqNote = "ring in host memory: the NIC writes CQEs (DMA)",
    .legendDashed = "dashed = illustration of what happens inside the NIC",
    .loopback = "A and B are both on %1: the NIC loops the packets back inside itself, they never leave on "
                "the wire",
    .doorbellToken = "MMIO doorbell write",
    .readPayload = "NIC reads the payload (DMA)",
    .readToken = "DMA read %1",
    .landOneSided = "bytes land in B's memory (DMA): B's CPU takes no part",
    .landReceive = "bytes land in the buffer of B's receive WQE (DMA)",
    .landRequester = "bytes land in A's memory (DMA)",
    .writeToken = "DMA write %1",
    .responderRead = "NIC reads the requested bytes (DMA): B's CPU takes no part",
    .atomicOverlay = "NIC reads, compares/adds and writes 8 bytes (DMA): B's CPU takes no part",
    .atomicToken = "DMA read-modify-write",
    .cqeWritten = "the NIC wrote this CQE (DMA)",
};

constexpr PathStory kSoftware{
    .kernelTitle = "Kernel: ib_uverbs + rdma_rxe",
    .kernelNote = "rdma_rxe (below) does the NIC's work on a CPU",
    .deviceTitle = "%1 · software RDMA device",
    .deviceUnnamed = "software RDMA device (kernel)",
    .deviceInKernel = true,
    .dataLane = "rings shared with the kernel: no system call",
    .doorbellLane = "send doorbell: write() system call",
    .doorbellTitle = "rxe requester",
    .cqNote = "ring shared with the process: rxe writes CQEs (CPU)",
    .legendDashed = "dashed = illustration of what happens inside the rxe driver",
    .loopback = "A and B are both on %1: rxe loops the packets back inside the driver, they never reach a "
                "network interface",
    .doorbellToken = "write() system call: doorbell",
    .readPayload = "rxe copies the payload with the CPU (kernel)",
    .readToken = "CPU copy %1",
    .landOneSided =
        "rxe copies the bytes into B's memory with the CPU (kernel): B's application runs no code",
    .landReceive = "rxe copies the bytes into the buffer of B's receive WQE (CPU)",
    .landRequester = "rxe copies the bytes into A's memory (CPU)",
    .writeToken = "CPU copy %1",
    .responderRead = "rxe copies the requested bytes with the CPU (kernel): B's application runs no code",
    .atomicOverlay = "rxe reads, compares/adds and writes 8 bytes with the CPU (kernel)",
    .atomicToken = "CPU read-modify-write",
    .cqeWritten = "rxe wrote this CQE into the shared ring (CPU)",
};

// Before the session names its device: nothing that holds for one class only.
constexpr PathStory kUnknown{
    .kernelTitle = "Kernel (ib_uverbs)",
    .kernelNote = "",
    .deviceTitle = "RDMA device · %1",
    .deviceUnnamed = "RDMA device",
    .deviceInKernel = false,
    .dataLane = "data path",
    .doorbellLane = "",
    .doorbellTitle = "doorbell",
    .cqNote = "",
    .legendDashed = "dashed = illustration of what happens inside the device",
    .loopback = "A and B are both on %1: the packets are looped back inside the device",
    .doorbellToken = "doorbell",
    .readPayload = "the device reads the payload",
    .readToken = "read %1",
    .landOneSided = "bytes land in B's memory",
    .landReceive = "bytes land in the buffer of B's receive WQE",
    .landRequester = "bytes land in A's memory",
    .writeToken = "write %1",
    .responderRead = "the device reads the requested bytes",
    .atomicOverlay = "the device reads, compares/adds and writes 8 bytes",
    .atomicToken = "read-modify-write",
    .cqeWritten = "the device wrote this CQE",
};

} // namespace

const PathStory& storyFor(labs::DeviceClass deviceClass) {
    switch (deviceClass) {
    case labs::DeviceClass::hardware:
        return kHardware;
    case labs::DeviceClass::software:
        return kSoftware;
    case labs::DeviceClass::unknown:
        break;
    }
    return kUnknown;
}

QString inlinePostedText(quint64 length) {
    return QStringLiteral("%1 B inline: the CPU copied them into the WQE").arg(length);
}

QString inlineSentText() {
    return QStringLiteral("inline: the payload travels in the WQE, A's buffer is not read again");
}

} // namespace rdmalab::app::datapath
