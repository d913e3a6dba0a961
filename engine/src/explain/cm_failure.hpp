// Why an rdma_cm connection failed, in words (internal: the rdma_cm operations' error cause).
#pragma once

#include <rdma/rdma_cma.h>

#include <string>

namespace rdmalab::detail {

/// Why an rdma_cm event other than the expected one arrived. For REJECTED, `status` is the IB CM's
/// reject reason (the kernel's enum ib_cm_rej_reason in include/rdma/ib_cm.h: 8 invalid service ID, 28
/// consumer defined); for the error events it is a negative errno.
std::string describe_cm_failure(rdma_cm_event_type type, int status);
/// The same in Simplified Chinese, case for case.
std::string describe_cm_failure_zh(rdma_cm_event_type type, int status);

} // namespace rdmalab::detail
