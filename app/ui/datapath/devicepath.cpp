#include "devicepath.h"

#include <QCoreApplication>

namespace rdmalab::app::datapath {

namespace {

// Checked against rdma-core (providers/rxe/rxe.c: post_send writes the WQE into the send ring mmapped from
// the kernel, then post_send_db write()s IB_USER_VERBS_CMD_POST_SEND on the uverbs fd; post_recv and poll_cq
// touch only their shared rings; providers/mlx5/qp.c: post_send_db updates the doorbell record and writes
// the UAR page, a receive only its doorbell record) and Linux 6.1 drivers/infiniband/sw/rxe (rxe_req.c and
// rxe_resp.c copy payloads with memcpy through the MR's pages, rxe_comp.c posts the CQE into the shared
// ring, rxe_net.c hands a packet addressed to its own interface straight to rxe_rcv instead of a netdev).
constexpr PathStory kHardware{
    .kernelTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "Kernel (ib_uverbs: control path only)"),
    .kernelNote = "",
    .deviceTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "RNIC · %1"),
    .deviceUnnamed = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "RNIC"),
    .deviceInKernel = false,
    .dataLane = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "data path: bypasses the kernel"),
    .doorbellLane = "",
    .doorbellTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "doorbell (MMIO)"),
    .cqNote =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "ring in host memory: the NIC writes CQEs (DMA)"),
    .legendDashed = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                      "dashed = illustration of what happens inside the NIC"),
    .loopback = QT_TRANSLATE_NOOP(
        "rdmalab::app::DataPathView",
        "A and B are both on %1: the packets usually turn around inside the NIC; whether they "
        "reach the wire depends on the device and its configuration"),
    .doorbellToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "MMIO doorbell write"),
    .readPayload = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "NIC reads the payload (DMA)"),
    .readToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "DMA read %1"),
    .landOneSided = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                      "bytes land in B's memory (DMA): B's CPU takes no part"),
    .landReceive =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "bytes land in the buffer of B's receive WQE (DMA)"),
    .landRequester = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "bytes land in A's memory (DMA)"),
    .writeToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "DMA write %1"),
    .responderRead = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                       "NIC reads the requested bytes (DMA): B's CPU takes no part"),
    .atomicOverlay =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                          "NIC reads, compares/adds and writes 8 bytes (DMA): B's CPU takes no part"),
    .atomicToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "DMA read-modify-write"),
    .cqeWritten = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the NIC wrote this CQE (DMA)"),
    .landArrived =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the NIC writes it into %1's receive buffer (DMA)"),
};

constexpr PathStory kSoftware{
    .kernelTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "Kernel: ib_uverbs + rdma_rxe"),
    .kernelNote =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rdma_rxe (below) does the NIC's work on a CPU"),
    .deviceTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "%1 · software RDMA device"),
    .deviceUnnamed = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "software RDMA device (kernel)"),
    .deviceInKernel = true,
    .dataLane =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rings shared with the kernel: no system call"),
    .doorbellLane = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "send doorbell: write() system call"),
    .doorbellTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rxe requester"),
    .cqNote = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                "ring shared with the process: rxe writes CQEs (CPU)"),
    .legendDashed = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                      "dashed = illustration of what happens inside the rxe driver"),
    .loopback = QT_TRANSLATE_NOOP(
        "rdmalab::app::DataPathView",
        "A and B are both on %1: rxe loops the packets back inside the driver, they never reach a "
        "network interface"),
    .doorbellToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "write() system call: doorbell"),
    .readPayload =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rxe copies the payload with the CPU (kernel)"),
    .readToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "CPU copy %1"),
    .landOneSided = QT_TRANSLATE_NOOP(
        "rdmalab::app::DataPathView",
        "rxe copies the bytes into B's memory with the CPU (kernel): B's application runs no code"),
    .landReceive = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                     "rxe copies the bytes into the buffer of B's receive WQE (CPU)"),
    .landRequester =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rxe copies the bytes into A's memory (CPU)"),
    .writeToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "CPU copy %1"),
    .responderRead = QT_TRANSLATE_NOOP(
        "rdmalab::app::DataPathView",
        "rxe copies the requested bytes with the CPU (kernel): B's application runs no code"),
    .atomicOverlay = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                       "rxe reads, compares/adds and writes 8 bytes with the CPU (kernel)"),
    .atomicToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "CPU read-modify-write"),
    .cqeWritten =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rxe wrote this CQE into the shared ring (CPU)"),
    .landArrived =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "rxe copies it into %1's receive buffer (CPU)"),
};

// Before the session names its device: nothing that holds for one class only.
constexpr PathStory kUnknown{
    .kernelTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "Kernel (ib_uverbs)"),
    .kernelNote = "",
    .deviceTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "RDMA device · %1"),
    .deviceUnnamed = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "RDMA device"),
    .deviceInKernel = false,
    .dataLane = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "data path"),
    .doorbellLane = "",
    .doorbellTitle = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "doorbell"),
    .cqNote = "",
    .legendDashed = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                      "dashed = illustration of what happens inside the device"),
    .loopback = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView",
                                  "A and B are both on %1: the packets are looped back inside the device"),
    .doorbellToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "doorbell"),
    .readPayload = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the device reads the payload"),
    .readToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "read %1"),
    .landOneSided = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "bytes land in B's memory"),
    .landReceive =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "bytes land in the buffer of B's receive WQE"),
    .landRequester = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "bytes land in A's memory"),
    .writeToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "write %1"),
    .responderRead = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the device reads the requested bytes"),
    .atomicOverlay =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the device reads, compares/adds and writes 8 bytes"),
    .atomicToken = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "read-modify-write"),
    .cqeWritten = QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the device wrote this CQE"),
    .landArrived =
        QT_TRANSLATE_NOOP("rdmalab::app::DataPathView", "the device writes it into %1's receive buffer"),
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

QString pathText(const char* text) {
    return text[0] == '\0' ? QString() : QCoreApplication::translate("rdmalab::app::DataPathView", text);
}

QString inlinePostedText(quint64 length) {
    return QCoreApplication::translate("rdmalab::app::DataPathView",
                                       "%1 B inline: the CPU copied them into the WQE")
        .arg(length);
}

QString inlineSentText() {
    return QCoreApplication::translate(
        "rdmalab::app::DataPathView", "inline: the payload travels in the WQE, A's buffer is not read again");
}

} // namespace rdmalab::app::datapath
