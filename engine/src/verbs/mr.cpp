// MemoryRegion: a registered buffer (ibv_reg_mr / ibv_dereg_mr), allocated by the engine or the caller's.
#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"
#include "verbs/traced_call.hpp"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rdmalab {

using namespace detail;

MemoryRegion::MemoryRegion(std::shared_ptr<ProtectionDomain> pd, ibv_mr* mr, unsigned access,
                           void* owned_buffer, std::string label)
    : pd_(std::move(pd)), mr_(mr), data_(static_cast<std::uint8_t*>(mr->addr)), length_(mr->length),
      lkey_(mr->lkey), rkey_(mr->rkey), access_(access), owned_buffer_(owned_buffer),
      label_(std::move(label)) {}

std::shared_ptr<MemoryRegion> MemoryRegion::allocate(std::shared_ptr<ProtectionDomain> pd, std::size_t length,
                                                     unsigned access, std::string label) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t rounded = ((length == 0 ? 1 : length) + page - 1) / page * page;
    if (auto shortfall = explain_memory_shortfall(rounded, fmt::format("a buffer of {} bytes", length),
                                                  fmt::format("一个 {} 字节的缓冲区", length)))
        fail(pd->trace(), std::move(*shortfall));
    void* buffer = std::aligned_alloc(page, rounded);
    if (buffer == nullptr)
        fail(pd->trace(), explain_errno("aligned_alloc", ENOMEM, fmt::format("{} bytes for a buffer", length),
                                        fmt::format("为缓冲区分配 {} 字节", length)));
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

std::shared_ptr<MemoryRegion> MemoryRegion::allocate(std::shared_ptr<ProtectionDomain> pd, std::size_t length,
                                                     unsigned access, const BufferOptions& options,
                                                     std::string label) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t align = options.align == 0 ? page : options.align;
    // Below a page the buffer starts `align` bytes into a page; from a page on, the mapping is made large
    // enough to find an `align`-aligned start inside it.
    const std::size_t lead = align < page ? align : 0;
    const std::size_t slack = align > page ? align : 0;
    const std::size_t rounded = ((length == 0 ? 1 : length) + lead + page - 1) / page * page;
    const std::size_t mapped = rounded + slack;
    if (auto shortfall = explain_memory_shortfall(mapped, fmt::format("a buffer of {} bytes", length),
                                                  fmt::format("一个 {} 字节的缓冲区", length)))
        fail(pd->trace(), std::move(*shortfall));
    void* base = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        fail(pd->trace(), explain_errno("mmap", errno, fmt::format("{} bytes for a buffer", length),
                                        fmt::format("为缓冲区映射 {} 字节", length)));
    // Pointer arithmetic from the mapping (not integer-to-pointer casts): skip to the aligned start.
    const std::size_t skip = slack > 0 ? (align - reinterpret_cast<std::uintptr_t>(base) % align) % align : 0;
    std::uint8_t* start = static_cast<std::uint8_t*>(base) + skip;
    std::uint8_t* buffer = start + lead;
    try {
        if (options.fill) options.fill({buffer, length});
        if (options.read_only && mprotect(start, rounded, PROT_READ) != 0)
            fail(pd->trace(),
                 explain_errno("mprotect", errno, "making the buffer read-only", "把缓冲区设为只读"));
        auto mr = register_memory(std::move(pd), buffer, length, access, std::move(label));
        mr->mapping_ = base;
        mr->mapping_length_ = mapped;
        mr->read_only_ = options.read_only;
        return mr;
    } catch (...) {
        munmap(base, mapped);
        throw;
    }
}

std::shared_ptr<MemoryRegion> MemoryRegion::register_memory(std::shared_ptr<ProtectionDomain> pd,
                                                            void* address, std::size_t length,
                                                            unsigned access, std::string label) {
    std::uint64_t dur_ns = 0;
    ibv_mr* mr = traced_call(
        VerbCall{.scope = pd->trace(), .verb = "ibv_reg_mr", .timed = true, .duration = &dur_ns},
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
    auto region =
        std::shared_ptr<MemoryRegion>(new MemoryRegion(std::move(pd), mr, access, nullptr, std::move(label)));
    region->registration_ns_ = dur_ns;
    return region;
}

std::uint64_t MemoryRegion::deregister() {
    if (mr_ == nullptr) return 0;
    std::uint64_t dur_ns = 0;
    traced_call(
        VerbCall{.scope = pd_->trace(), .verb = "ibv_dereg_mr", .timed = true, .duration = &dur_ns},
        [&] { return ibv_dereg_mr(mr_); },
        [&](const auto&, nlohmann::json& ids, nlohmann::json& data) {
            ids = {{"lkey", lkey_}, {"rkey", rkey_}};
            data["label"] = label_;
        },
        [&](const auto& call) {
            return explain_errno("ibv_dereg_mr", call.value, fmt::format("the region with lkey {}", lkey_),
                                 fmt::format("lkey 为 {} 的区域", lkey_));
        });
    mr_ = nullptr;
    return dur_ns;
}

nlohmann::json MemoryRegion::describe() const {
    return {{"label", label_},    {"addr", hex(address())}, {"length", length()},
            {"lkey", lkey()},     {"rkey", rkey()},         {"access", access_flag_names(access_)},
            {"pd", pd_->handle()}};
}

MemoryRegion::~MemoryRegion() {
    if (mr_ != nullptr) // not already deregistered by deregister()
        traced_release(
            pd_->trace(), "ibv_dereg_mr", [&] { return ibv_dereg_mr(mr_); },
            [&](nlohmann::json& ids, nlohmann::json& data) {
                ids = {{"lkey", lkey_}, {"rkey", rkey_}};
                data["label"] = label_;
            });
    if (mapping_ != nullptr) munmap(mapping_, mapping_length_);
    std::free(owned_buffer_);
}

} // namespace rdmalab
