// The device fixture of the verbs-level suites: DevicePair, ConnectedPair and their helpers.
#include "devicepair.hpp"

#include "rdmalab/engine/device.hpp"

#include <cstring>

namespace rdmalab::test {

using namespace std::chrono_literals;

DevicePair::DevicePair(const PairOptions& options) {
    tracer->add_sink(sink);
    context = Context::open("", tracer);
    gid_index = context->rocev2_gid_index(1);
    gid = context->query_gid(1, gid_index);
    mtu = context->query_port(1).active_mtu;
    pd_a = ProtectionDomain::alloc(context, Endpoint::A);
    pd_b = ProtectionDomain::alloc(context, Endpoint::B);
    auto channel_b = options.channel_b ? CompletionChannel::create(context, Endpoint::B) : nullptr;
    cq_a = CompletionQueue::create(context, Endpoint::A, options.cqe);
    cq_b = CompletionQueue::create(context, Endpoint::B, options.cqe, channel_b);
    qp_a = QueuePair::create(pd_a, cq_a, cq_a, options.type, options.capacity);
    qp_b = QueuePair::create(pd_b, cq_b, cq_b, options.type, options.capacity);
}

PathInfo DevicePair::path_to(const QueuePair& peer, std::uint32_t psn) const {
    PathInfo p;
    p.remote_qpn = peer.qp_num();
    p.remote_psn = psn;
    p.remote_gid = gid;
    p.sgid_index = gid_index;
    p.path_mtu = mtu;
    p.min_rnr_timer = 1;
    return p;
}

void DevicePair::connect(const RtsParams& rts, unsigned access) {
    connect_pair(*qp_a, *qp_b, 1, access, path_to(*qp_b, rts.sq_psn), rts);
}

ConnectedPair::ConnectedPair(unsigned dst_access, const RtsParams& rts, const QpCapacity& capacity)
    : DevicePair({.capacity = capacity}) {
    connect(rts);
    src = MemoryRegion::allocate(pd_a, 4096, IBV_ACCESS_LOCAL_WRITE);
    dst = MemoryRegion::allocate(pd_b, 4096, dst_access);
    std::memset(src->data(), 'a', 4096);
}

SendRequest ConnectedPair::write(std::uint64_t wr_id, std::uint32_t length) const {
    SendRequest wr;
    wr.wr_id = wr_id;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.sges = {{src->address(), length, src->lkey()}};
    wr.remote_addr = dst->address();
    wr.rkey = dst->rkey();
    return wr;
}

std::optional<ErrorInfo> failure_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const RdmaError& e) {
        return e.info();
    }
    return std::nullopt;
}

std::vector<Completion> collect(CompletionQueue& cq, std::size_t count, std::chrono::milliseconds timeout) {
    auto wcs = cq.poll_until(count, timeout);
    auto extra = cq.poll_until(1, 200ms);
    wcs.insert(wcs.end(), extra.begin(), extra.end());
    return wcs;
}

bool isRxe() {
    const auto devices = list_devices();
    return !devices.empty() && devices.front().driver == "rxe";
}

} // namespace rdmalab::test
