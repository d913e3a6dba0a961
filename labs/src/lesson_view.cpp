#include "rdmalab/labs/lesson_view.hpp"

#include <algorithm>
#include <array>

namespace rdmalab::labs {

namespace {

constexpr std::array<std::string_view, 7> kEngineOpcodes = {"send", "send_imm", "write", "write_imm",
                                                            "read", "cas",      "faa"};

/// The opcodes whose lesson posts a receive on B (engine: needs_recv).
bool needs_recv(std::string_view op) {
    return op == "send" || op == "send_imm" || op == "write_imm";
}

/// A value written as exactly "{name}" is the parameter's default; anything else is itself.
const Value& resolved(const Lab& lab, const Value& value) {
    if (value.kind == Value::Kind::text && value.text.size() > 2 && value.text.front() == '{' &&
        value.text.back() == '}')
        if (const auto* parameter = lab.parameter(value.text.substr(1, value.text.size() - 2)))
            return parameter->default_value;
    return value;
}

} // namespace

std::vector<std::string> loopback_step_ids(std::string_view op) {
    if (std::find(kEngineOpcodes.begin(), kEngineOpcodes.end(), op) == kEngineOpcodes.end()) return {};
    std::vector<std::string> ids = {"open_device", "alloc_pd_A",  "alloc_pd_B",  "reg_mr_A",    "reg_mr_B",
                                    "create_cq_A", "create_cq_B", "create_qp_A", "create_qp_B", "init_A",
                                    "init_B",      "rtr_A",       "rtr_B",       "rts_A",       "rts_B"};
    if (needs_recv(op)) ids.emplace_back("post_recv_B");
    ids.insert(ids.end(), {"post_send_A", "poll_cq_A"});
    if (needs_recv(op)) ids.emplace_back("poll_cq_B");
    ids.emplace_back("verify");
    return ids;
}

std::optional<LoopbackLesson> as_loopback_lesson(const Lab& lab, std::string* why) {
    auto fail = [&](std::string reason) -> std::optional<LoopbackLesson> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    const Step* post = lab.step("post_send_A");
    if (!post || post->action != "post_send") return fail("no post_send step with the id post_send_A");
    const auto opcode = post->args.find("opcode");
    if (opcode == post->args.end()) return fail("post_send_A has no opcode");
    LoopbackLesson lesson;
    lesson.op = resolved(lab, opcode->second).text;
    const auto ids = loopback_step_ids(lesson.op);
    if (ids.empty()) return fail("the engine has no operation '" + lesson.op + "'");
    std::vector<std::string> have;
    for (const auto& step : lab.steps)
        have.push_back(step.id);
    if (have != ids) {
        std::string expected;
        for (const auto& id : ids)
            expected += (expected.empty() ? "" : ", ") + id;
        return fail("its step ids are not the engine's for " + lesson.op + ": " + expected);
    }
    lesson.size = 64;
    if (const auto* size = lab.parameter("size"))
        lesson.size = static_cast<std::size_t>(size->default_value.integer);
    // The application fills the source buffer: A's for a send or write, B's for a read.
    if (const Step* source = lab.step(lesson.op == "read" ? "reg_mr_B" : "reg_mr_A"))
        if (const auto fill = source->args.find("fill"); fill != source->args.end())
            lesson.message = resolved(lab, fill->second).text;
    lesson.lab = lab;
    return lesson;
}

std::vector<LoopbackLesson> loopback_lessons(const std::vector<Lab>& labs) {
    std::vector<LoopbackLesson> out;
    for (const auto& lab : labs)
        if (auto lesson = as_loopback_lesson(lab)) out.push_back(std::move(*lesson));
    return out;
}

} // namespace rdmalab::labs
