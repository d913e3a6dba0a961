// The capacities a QP was granted (internal): what ibv_create_qp / ibv_create_qp_ex wrote back into
// `cap`, which may exceed what was asked and is what post_send checks against.
#pragma once

#include "rdmalab/engine/verbs.hpp"

namespace rdmalab::detail {

inline QpCapacity granted_capacity(const ibv_qp_cap& cap) {
    QpCapacity granted;
    granted.max_send_wr = cap.max_send_wr;
    granted.max_recv_wr = cap.max_recv_wr;
    granted.max_send_sge = cap.max_send_sge;
    granted.max_recv_sge = cap.max_recv_sge;
    granted.max_inline_data = cap.max_inline_data;
    return granted;
}

} // namespace rdmalab::detail
