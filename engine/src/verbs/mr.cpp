// MemoryRegion: a registered buffer (ibv_reg_mr / ibv_dereg_mr), allocated by the engine or the caller's.
#include "rdmalab/errors.hpp"
#include "rdmalab/names.hpp"
#include "rdmalab/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rdmalab {

using namespace detail;

MemoryRegion::MemoryRegion(std::shared_ptr<ProtectionDomain> pd, ibv_mr* mr, unsigned access,
                           void* owned_buffer, std::string label)
    : pd_(std::move(pd)), mr_(mr), access_(access), owned_buffer_(owned_buffer), label_(std::move(label)) {}

std::shared_ptr<MemoryRegion> MemoryRegion::allocate(std::shared_ptr<ProtectionDomain> pd, std::size_t length,
                                                     unsigned access, std::string label) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t rounded = ((length == 0 ? 1 : length) + page - 1) / page * page;
    if (auto shortfall = explain_memory_shortfall(rounded, fmt::format("a buffer of {} bytes", length)))
        fail(pd->trace(), std::move(*shortfall));
    void* buffer = std::aligned_alloc(page, rounded);
    if (buffer == nullptr)
        fail(pd->trace(),
             explain_errno("aligned_alloc", ENOMEM, fmt::format("{} bytes for a buffer", length)));
    std::memset(buffer, 0, rounded);
    try {
        auto mr = register_memory(std::move(pd), buffer, length, access, std::move(label));
        mr->owned_buffer_ = buffer;
        return mr;
    } catch (...) {
        std::free(buffer);
        throw;
    }
}

std::shared_ptr<MemoryRegion> MemoryRegion::register_memory(std::shared_ptr<ProtectionDomain> pd,
                                                            void* address, std::size_t length,
                                                            unsigned access, std::string label) {
    ibv_mr* mr = traced_call(
        VerbCall{.scope = pd->trace(), .verb = "ibv_reg_mr", .timed = true},
        [&] {
            errno = 0;
            return ibv_reg_mr(pd->get(), address, length, static_cast<int>(access));
        },
        [&](const auto& call, nlohmann::json& ids, nlohmann::json& data) {
            ids["pd"] = pd->handle();
            if (call.ok()) {
                ids["lkey"] = call.value->lkey;
                ids["rkey"] = call.value->rkey;
            }
            data["args"] = {{"addr", hex(reinterpret_cast<std::uintptr_t>(address))},
                            {"length", length},
                            {"access", access_flag_names(access)}};
            data["label"] = label;
        },
        [&](const auto& call) { return explain_reg_mr_error(call.err, length, access); });
    return std::shared_ptr<MemoryRegion>(
        new MemoryRegion(std::move(pd), mr, access, nullptr, std::move(label)));
}

nlohmann::json MemoryRegion::describe() const {
    return {{"label", label_},    {"addr", hex(address())}, {"length", length()},
            {"lkey", lkey()},     {"rkey", rkey()},         {"access", access_flag_names(access_)},
            {"pd", pd_->handle()}};
}

MemoryRegion::~MemoryRegion() {
    const std::uint32_t lkey = mr_->lkey;
    const std::uint32_t rkey = mr_->rkey;
    traced_release(
        pd_->trace(), "ibv_dereg_mr", [&] { return ibv_dereg_mr(mr_); },
        [&](nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"lkey", lkey}, {"rkey", rkey}};
            data["label"] = label_;
        });
    std::free(owned_buffer_);
}

} // namespace rdmalab
