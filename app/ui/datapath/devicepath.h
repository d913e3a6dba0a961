// What the data-path picture says about the device the trace ran on, as data: one row per device class. An
// RDMA NIC moves the bytes by DMA and is rung by an MMIO write from user space (the data path bypasses the
// kernel); a software device (SoftRoCE, the kernel's rdma_rxe driver) is rung by a write() system call and
// does the NIC's work in the kernel, copying the bytes with the CPU. The class comes from the session
// event's device_info, so a replay shows the path of the device it was recorded on.
#pragma once

#include "inspector.h" // deviceClassOf: the class of the session's device, the one fold of it

#include <QString>

namespace rdmalab::app::datapath {

/// The texts of one device class. `%1` in a text is filled in where its comment says.
struct PathStory {
    // The picture between events.
    const char* kernelTitle;   ///< the kernel layer
    const char* kernelNote;    ///< right of the kernel's title; empty: none
    const char* deviceTitle;   ///< the device box; %1 the device's name
    const char* deviceUnnamed; ///< the device box before the device is named
    bool deviceInKernel;       ///< the device box takes the kernel's colour (it is kernel code)
    const char* dataLane;      ///< the band from the verbs library into the device, beside the kernel
    const char* doorbellLane;  ///< the send doorbell's own lane through the kernel; empty: none
    const char* doorbellTitle; ///< the box a send post rings
    const char* cqNote;        ///< where the CQ's ring lives and who writes it
    const char* legendDashed;  ///< what the dashed shapes illustrate
    const char* loopback;      ///< the link of a pair on one device; %1 the device
    // The animations.
    const char* doorbellToken; ///< what rings the doorbell after a send post
    const char* readPayload;   ///< the requester's device takes the payload from A's buffer
    const char* readToken;     ///< %1 the size ("64 B")
    const char* landOneSided;  ///< a WRITE's bytes arrive in B's memory
    const char* landReceive;   ///< a SEND's bytes arrive in the buffer of B's receive WQE
    const char* landRequester; ///< a READ response or an atomic's old value arrives in A's memory
    const char* writeToken;    ///< %1 the size
    const char* responderRead; ///< B's side takes the bytes a READ asked for
    const char* atomicOverlay; ///< B's side reads, compares or adds, and writes 8 bytes
    const char* atomicToken;
    const char* cqeWritten; ///< who put a completion into the CQ
    /// A datagram's (or an unacknowledged packet's) bytes arrive in the buffer of a receive WQE; %1 the
    /// endpoint ("C").
    const char* landArrived;
};

/// The row of a device class (deviceClassOf: unknown until the session says whether it is software).
const PathStory& storyFor(labs::DeviceClass deviceClass);

/// A text of the table (or of another static table of the picture) in the current language; "" stays empty.
QString pathText(const char* text);

/// The same for every device: an inline send's payload went into the WQE when it was posted.
QString inlinePostedText(quint64 length);
QString inlineSentText();

} // namespace rdmalab::app::datapath
