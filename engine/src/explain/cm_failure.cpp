#include "explain/cm_failure.hpp"

#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

namespace rdmalab::detail {

std::string describe_cm_failure(rdma_cm_event_type type, int status) {
    switch (type) {
    case RDMA_CM_EVENT_REJECTED:
        if (status == 8)
            return "Nobody listens on that address and port: the peer's connection manager answered the "
                   "request with REJ reason 8 (invalid service ID).";
        if (status == 28)
            return "The application on the other side rejected the connection (REJ reason 28, consumer "
                   "defined): it serves a different operation, or its setup failed; see its output.";
        return fmt::format("The peer rejected the connection (REJ reason {}).", status);
    case RDMA_CM_EVENT_ADDR_ERROR:
        return fmt::format("The address could not be resolved to an RDMA device ({}): no route to it, or the "
                           "route leaves through an interface without an RDMA device.",
                           status < 0 ? errno_name(-status) : std::to_string(status));
    case RDMA_CM_EVENT_ROUTE_ERROR:
        return fmt::format("No route to the peer could be resolved ({}).",
                           status < 0 ? errno_name(-status) : std::to_string(status));
    case RDMA_CM_EVENT_UNREACHABLE:
        return "The peer did not answer the connection request: it is unreachable or its host is down.";
    case RDMA_CM_EVENT_DISCONNECTED:
        return "The peer disconnected (or its process ended) before the operation finished.";
    default:
        return "The connection could not be set up or was torn down by the peer.";
    }
}

std::string describe_cm_failure_zh(rdma_cm_event_type type, int status) {
    switch (type) {
    case RDMA_CM_EVENT_REJECTED:
        if (status == 8)
            return "该地址和端口上没有监听方：对端的连接管理器以 REJ 原因 8（无效的服务 ID）回应了连接请求。";
        if (status == 28)
            return "对端的应用拒绝了连接（REJ 原因 28，由使用者定义）：它提供的是另一种操作，或者它的准备工作"
                   "失败了；请查看它的输出。";
        return fmt::format("对端拒绝了连接（REJ 原因 {}）。", status);
    case RDMA_CM_EVENT_ADDR_ERROR:
        return fmt::format("无法把该地址解析到某个 RDMA 设备（{}）：没有到达它的路由，或者路由经过的网络接口"
                           "上没有 RDMA 设备。",
                           status < 0 ? errno_name(-status) : std::to_string(status));
    case RDMA_CM_EVENT_ROUTE_ERROR:
        return fmt::format("无法解析到达对端的路由（{}）。",
                           status < 0 ? errno_name(-status) : std::to_string(status));
    case RDMA_CM_EVENT_UNREACHABLE:
        return "对端没有回应连接请求：它无法到达，或者它的主机已经宕机。";
    case RDMA_CM_EVENT_DISCONNECTED:
        return "对端在操作完成之前断开了连接（或者它的进程已经结束）。";
    default:
        return "连接无法建立，或者被对端拆除了。";
    }
}

} // namespace rdmalab::detail
