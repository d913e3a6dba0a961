// The actions of memory: reg_mr, dereg_mr, write_memory (the application's own writes into a region) and
// set_memlock (the locked-memory limit registration runs into, chapter 4), and the `memory` data events
// that show a region's bytes.
#include "actions.hpp"
#include "rdmalab/engine/memlock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace rdmalab::labs::run {

void record_memory(State& s, const MemoryRegion& mr, const std::string& name, const std::string& when,
                   bool by_application) {
    const auto bytes = mr.bytes();
    const std::size_t preview = std::min<std::size_t>(bytes.size(), 256);
    auto& baseline = s.baselines[name];
    if (by_application) baseline.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(preview));
    if (!s.tracer || !s.tracer->enabled()) return;
    std::string hex_text, printable;
    nlohmann::json changed = nlohmann::json::array();
    // The runs of bytes, within the preview, that differ from the baseline.
    std::size_t run_start = 0;
    bool in_run = false;
    for (std::size_t i = 0; i <= preview; ++i) {
        const bool differs = i < preview && i < baseline.size() && bytes[i] != baseline[i];
        if (differs && !in_run) run_start = i;
        if (!differs && in_run) changed.push_back({{"offset", run_start}, {"length", i - run_start}});
        in_run = differs;
        if (i == preview) break;
        hex_text += fmt::format("{:02x}", bytes[i]);
        printable += (bytes[i] >= 0x20 && bytes[i] < 0x7f) ? char(bytes[i]) : '.';
    }
    s.tracer->record(endpoint_of(name), EventKind::Data, "memory", {{"lkey", mr.lkey()}, {"rkey", mr.rkey()}},
                     {{"when", when},
                      {"object", name},
                      {"addr", hex(mr.address())},
                      {"length", mr.length()},
                      {"preview_len", preview},
                      {"hex", hex_text},
                      {"text", printable},
                      {"changed", changed}});
}

void record_every_region(State& s, const std::string& when) {
    for (const auto& [name, mr] : s.mrs)
        record_memory(s, *mr, name, when);
}

void do_reg_mr(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "as");
    auto& pd = s.object(s.pds, step, "pd");
    const auto size = static_cast<std::size_t>(integer(step, "size", 4096));
    const unsigned access = access_bits(flag_list(arg(step, "access")));
    BufferOptions buffer;
    buffer.read_only = text(step, "mapping", "read_write") == "read_only";
    buffer.align = static_cast<std::size_t>(integer(step, "align", 0));
    const std::string fill = text(step, "fill");
    const Value* fill_u64 = arg(step, "fill_u64");
    buffer.fill = [&](std::span<std::uint8_t> bytes) {
        if (!fill.empty())
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = static_cast<std::uint8_t>(fill[i % fill.size()]);
        if (fill_u64 && bytes.size() >= 8) {
            const std::uint64_t v = fill_u64->as_u64();
            std::memcpy(bytes.data(), &v, 8);
        }
    };
    auto mr = MemoryRegion::allocate(pd, size, access, buffer, name);
    s.mrs[name] = mr;
    remember(s, name);
    s.values[name + ".addr"] = hex(mr->address());
    s.values[name + ".length"] = std::to_string(mr->length());
    s.values[name + ".lkey"] = hex(mr->lkey());
    s.values[name + ".rkey"] = hex(mr->rkey());
    s.values[name + ".access"] = access_names(access);
    Results& out = r.results;
    out["addr"] = hex(mr->address());
    out["length"] = std::to_string(mr->length());
    out["lkey"] = hex(mr->lkey());
    out["rkey"] = hex(mr->rkey());
    out["access"] = access_names(access);
    out["dur_ns"] = std::to_string(mr->registration_ns());
    // How the device builds the key: on rxe rkey = pool index << 8 | an 8-bit key (rxe_mr.c rxe_mr_init).
    out["rkey_index"] = std::to_string(mr->rkey() >> 8);
    out["rkey_key"] = hex(mr->rkey() & 0xffu);
    record_memory(s, *mr, name, "registered", true);
}

void do_dereg_mr(State& s, const Step& step, StepResult& r) {
    const std::string name = text(step, "mr");
    auto& mr = s.object(s.mrs, step, "mr");
    r.results["dur_ns"] = std::to_string(mr->deregister());
    s.mrs.erase(name);
    s.baselines.erase(name);
}

void do_write_memory(State& s, const Step& step, StepResult&) {
    const std::string name = text(step, "mr");
    auto& mr = s.object(s.mrs, step, "mr");
    if (mr->read_only())
        throw LabRunError(fmt::format("{}'s buffer is mapped read-only: the application cannot write it "
                                      "(a real program would be killed with SIGSEGV)",
                                      name));
    std::vector<std::uint8_t> bytes;
    if (const Value* t = arg(step, "string")) bytes.assign(t->text.begin(), t->text.end());
    if (const Value* h = arg(step, "hex")) {
        const auto decoded = hex_bytes(h->text);
        bytes.insert(bytes.end(), decoded.begin(), decoded.end());
    }
    if (const Value* v = arg(step, "u64")) {
        const std::uint64_t value = v->as_u64();
        bytes.resize(bytes.size() + 8);
        std::memcpy(bytes.data() + bytes.size() - 8, &value, 8);
    }
    const auto offset = static_cast<std::size_t>(integer(step, "offset", 0));
    if (offset + bytes.size() > mr->length())
        throw LabRunError(fmt::format("writing {} bytes at offset {} runs past the end of {} ({} bytes)",
                                      bytes.size(), offset, name, mr->length()));
    std::memcpy(mr->data() + offset, bytes.data(), bytes.size());
    record_memory(s, *mr, name, "written by the application", true);
}

void do_set_memlock(State& s, const Step& step, StepResult& r) {
    const auto limit = u64(arg(step, "limit"), 0);
    const bool drop = boolean(step, "drop_ipc_lock", true);
    // A second set_memlock restores the first one's settings before applying its own, so teardown always
    // returns to what the process had before the lab.
    s.memlock.reset();
    s.memlock = std::make_unique<LockedMemoryLimit>(limit, drop, s.tracer);
    const auto& m = *s.memlock;
    r.results["limit"] = std::to_string(m.limit());
    r.results["previous_limit"] = m.previous() ? std::to_string(*m.previous()) : "unlimited";
    r.results["cap_ipc_lock"] = m.dropped_ipc_lock() ? "dropped" : m.had_ipc_lock() ? "kept" : "not held";
}

} // namespace rdmalab::labs::run
