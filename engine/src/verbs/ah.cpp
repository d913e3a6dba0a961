// AddressHandle: ibv_create_ah / ibv_destroy_ah, the path a UD send takes.
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

namespace rdmalab {

using namespace detail;

AddressHandle::AddressHandle(std::shared_ptr<ProtectionDomain> pd, ibv_ah* ah)
    : pd_(std::move(pd)), ah_(ah) {}

std::shared_ptr<AddressHandle> AddressHandle::create(std::shared_ptr<ProtectionDomain> pd,
                                                     const ibv_ah_attr& attr) {
    ibv_ah_attr copy = attr;
    ibv_ah* ah = traced_call(
        VerbCall{.scope = pd->trace(), .verb = "ibv_create_ah"},
        [&] { return ibv_create_ah(pd->get(), &copy); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids["pd"] = pd->handle();
            data["args"] = {{"is_global", attr.is_global},
                            {"dgid", gid_to_string(attr.grh.dgid)},
                            {"sgid_index", attr.grh.sgid_index},
                            {"port", attr.port_num}};
        },
        [](const auto& call) { return explain_errno("ibv_create_ah", call.err); });
    return std::shared_ptr<AddressHandle>(new AddressHandle(std::move(pd), ah));
}

AddressHandle::~AddressHandle() {
    traced_release(
        pd_->trace(), "ibv_destroy_ah", [&] { return ibv_destroy_ah(ah_); }, no_fields);
}

} // namespace rdmalab
