// Every expectation kind checked on the real outcome, each reporting what it expected and what it observed.
#include "rdmalab/engine/names.hpp"
#include "run_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace rdmalab::labs::run {

namespace {

ExpectationOutcome make(const std::string& kind, std::string description, bool held, std::string observed,
                        const Expectation* source, const std::string& language) {
    ExpectationOutcome e;
    e.kind = kind;
    e.description = std::move(description);
    e.held = held;
    e.observed = std::move(observed);
    if (source) e.why = source->why.get(language);
    return e;
}

/// "ibv_modify_qp failed with EINVAL: Invalid argument". In Chinese the verb and the code: the meaning is
/// the system's English (strerror, the status's description).
std::string error_text(const ErrorInfo& error, const std::string& language) {
    return say(language,
               fmt::format("{} failed with {}{}{}", error.verb, error.code, error.meaning.empty() ? "" : ": ",
                           error.meaning),
               fmt::format("{} 失败，返回 {}", error.verb, error.code));
}

// ---- fails / succeeds --------------------------------------------------------------------------------

ExpectationOutcome check_fails(const Expectation& e, const std::optional<ErrorInfo>& error, bool runner_error,
                               const std::string& language) {
    const std::string wanted = e.value.text;
    const std::string description = wanted == "any"
                                        ? say(language, "fails (any errno)", "失败（任何 errno）")
                                        : say(language, "fails with " + wanted, "以 " + wanted + " 失败");
    if (!error) return make("fails", description, false, say(language, "succeeded", "成功了"), &e, language);
    if (runner_error)
        return make("fails", description, false,
                    say(language, "the runner refused: ", "运行器拒绝执行：") + error->meaning, &e, language);
    const std::string got = errno_name(error->err);
    const bool held = error->err != 0 && (wanted == "any" || got == wanted);
    return make("fails", description, held, error_text(*error, language), &e, language);
}

// ---- completions / completion ------------------------------------------------------------------------

std::string describe_completion(const Completion& c) {
    if (c.status != IBV_WC_SUCCESS)
        return fmt::format("status={} wr_id={} qp={}", status_name(c.status), c.wr_id, c.qp_num);
    std::string out = fmt::format("status={} opcode={} byte_len={}", status_name(c.status),
                                  opcode_name(c.opcode), c.byte_len);
    if (c.imm_data) out += " imm=" + hex(*c.imm_data);
    out += fmt::format(" wr_id={} qp={}", c.wr_id, c.qp_num);
    if (c.src_qp) out += fmt::format(" src_qp={}", c.src_qp);
    return out;
}

/// The fields of one completion named by the expectation: held when all match; `mismatch` lists those
/// that did not ("status=success (expected rem_access_err)").
bool completion_matches(const State& s, const Value& want, const Completion& c, std::string& observed,
                        std::string& mismatch) {
    const std::string& language = s.options.language;
    std::vector<std::string> parts, wrong;
    // ibv_poll_cq(3): when the status is not success, only wr_id, status, qp_num and vendor_err are valid.
    const bool failed = c.status != IBV_WC_SUCCESS;
    auto compare = [&](const std::string& field, std::string got, const std::string& expected) {
        const bool valid = !failed || field == "status" || field == "wr_id" || field == "qp";
        if (!valid) got = say(language, "undefined", "未定义");
        parts.push_back(field + "=" + got);
        if (!valid)
            wrong.push_back(
                say(language,
                    fmt::format("{} is undefined: the status is not success, and then only wr_id, "
                                "status and qp_num are valid (ibv_poll_cq(3))",
                                field),
                    fmt::format("{} 未定义：状态不是 success，此时只有 wr_id、status 和 qp_num "
                                "有效（ibv_poll_cq(3)）",
                                field)));
        else if (got != expected)
            wrong.push_back(say(language, fmt::format("{}={} (expected {})", field, got, expected),
                                fmt::format("{}={}（预期 {}）", field, got, expected)));
    };
    if (const Value* v = want.find("status")) compare("status", status_name(c.status), v->text);
    if (const Value* v = want.find("opcode")) compare("opcode", opcode_name(c.opcode), v->text);
    if (const Value* v = want.find("byte_len"))
        compare("byte_len", std::to_string(c.byte_len), std::to_string(v->as_u64()));
    if (const Value* v = want.find("imm"))
        compare("imm", c.imm_data ? hex(*c.imm_data) : "none", hex(v->as_u64()));
    if (const Value* v = want.find("wr_id"))
        compare("wr_id", std::to_string(c.wr_id), std::to_string(v->as_u64()));
    if (const Value* v = want.find("wc_flags")) {
        std::vector<std::string> flags = wc_flag_names(c.wc_flags);
        std::vector<std::string> expected = flag_list(v);
        std::sort(expected.begin(), expected.end());
        std::sort(flags.begin(), flags.end());
        auto join = [](const std::vector<std::string>& list) {
            std::string out;
            for (const auto& f : list)
                out += (out.empty() ? "" : ",") + f;
            return out.empty() ? std::string("none") : out;
        };
        compare("wc_flags", join(flags), join(expected));
    }
    if (const Value* v = want.find("wc_flags_include")) {
        // Inclusion, not equality: rxe sets IBV_WC_GRH on every receive, so "exactly with_imm" never holds.
        std::vector<std::string> present, missing;
        if (c.wc_flags & IBV_WC_WITH_IMM) present.push_back("with_imm");
        if (c.wc_flags & IBV_WC_GRH) present.push_back("grh");
        std::sort(present.begin(), present.end()); // shown as `wc_flags` shows them
        for (const auto& wanted : flag_list(v))
            if (std::find(present.begin(), present.end(), wanted) == present.end()) missing.push_back(wanted);
        std::string got;
        for (const auto& f : present)
            got += (got.empty() ? "" : ",") + f;
        std::string lacking;
        for (const auto& f : missing)
            lacking += (lacking.empty() ? "" : ",") + f;
        compare("wc_flags", got.empty() ? "none" : got,
                missing.empty() ? (got.empty() ? "none" : got)
                                : say(language, "at least ", "至少 ") + lacking);
    }
    auto qpn_of = [&](const Value* v) {
        const auto it = s.qps.find(v->text);
        return it == s.qps.end() ? say(language, "(no QP " + v->text + ")", "（没有 QP " + v->text + "）")
                                 : std::to_string(it->second.qp->qp_num());
    };
    if (const Value* v = want.find("src_qp")) compare("src_qp", std::to_string(c.src_qp), qpn_of(v));
    if (const Value* v = want.find("qp")) compare("qp", std::to_string(c.qp_num), qpn_of(v));
    for (const auto& p : parts)
        observed += (observed.empty() ? "" : " ") + p;
    for (const auto& w : wrong)
        mismatch += (mismatch.empty() ? "" : say(language, ", ", "，")) + w;
    return wrong.empty();
}

ExpectationOutcome check_completion(const State& s, const Expectation& e, const StepResult& r,
                                    const std::string& language) {
    std::string description;
    for (const auto& [key, v] : e.value.map)
        if (key != "index") description += (description.empty() ? "" : " ") + key + "=" + value_text(v);
    const Value* index = e.value.find("index");
    const bool all = index && index->kind == Value::Kind::text && index->text == "all";
    std::size_t at = 0;
    if (index && !all) {
        if (index->kind == Value::Kind::integer) {
            at = static_cast<std::size_t>(index->integer);
        } else {
            const auto it = s.values.find(index->text);
            at = index_number(it != s.values.end() ? it->second : index->text);
        }
        description = fmt::format("[{}] {}", at, description);
    }
    if (all) description = say(language, "every completion: ", "每个完成项：") + description;
    if (r.completions.empty())
        return make("completion", description, false,
                    say(language, "no completion arrived", "没有收到完成项"), &e, language);
    if (all) {
        std::string first_wrong;
        for (std::size_t i = 0; i < r.completions.size(); ++i) {
            std::string observed, mismatch;
            if (!completion_matches(s, e.value, r.completions[i], observed, mismatch) && first_wrong.empty())
                first_wrong = say(language, fmt::format("completion {}: {}", i, mismatch),
                                  fmt::format("第 {} 个完成项：{}", i, mismatch));
        }
        const bool held = first_wrong.empty();
        return make("completion", description, held,
                    held ? say(language, fmt::format("all {} completions match", r.completions.size()),
                               fmt::format("全部 {} 个完成项都符合", r.completions.size()))
                         : first_wrong,
                    &e, language);
    }
    if (at >= r.completions.size())
        return make(
            "completion", description, false,
            say(language,
                fmt::format("only {} completion(s) arrived, none at index {}", r.completions.size(), at),
                fmt::format("只收到 {} 个完成项，索引 {} 处没有", r.completions.size(), at)),
            &e, language);
    std::string observed, mismatch;
    const bool held = completion_matches(s, e.value, r.completions[at], observed, mismatch);
    return make("completion", description, held,
                held ? observed : observed + say(language, "; ", "；") + mismatch, &e, language);
}

// ---- qp_state ------------------------------------------------------------------------------------------

ExpectationOutcome check_qp_state(State& s, const Expectation& e, const std::string& language) {
    const Value* qp = e.value.find("qp");
    const Value* is = e.value.find("is");
    const std::string name = qp ? qp->text : "";
    const std::string wanted = is ? is->text : "";
    const std::string description = say(language, name + " is " + wanted, name + " 处于 " + wanted);
    const auto it = s.qps.find(name);
    if (it == s.qps.end())
        return make("qp_state", description, false, say(language, name + " does not exist", name + " 不存在"),
                    &e, language);
    const std::string got = state_name(it->second.qp->query_state());
    s.values[name + ".state"] = got;
    return make(
        "qp_state", description, got == wanted,
        say(language, name + " is " + got + " (ibv_query_qp)", name + " 处于 " + got + "（ibv_query_qp）"),
        &e, language);
}

// ---- bytes ---------------------------------------------------------------------------------------------

std::string byte_text(std::uint8_t b) {
    return (b >= 0x20 && b < 0x7f) ? fmt::format("0x{:02x} '{}'", b, char(b)) : fmt::format("0x{:02x}", b);
}

std::string preview(std::span<const std::uint8_t> bytes) {
    std::string out;
    const std::size_t n = std::min<std::size_t>(bytes.size(), 24);
    bool printable = true;
    for (std::size_t i = 0; i < n; ++i)
        printable = printable && bytes[i] >= 0x20 && bytes[i] < 0x7f;
    if (printable)
        return "\"" + std::string(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)) +
               (bytes.size() > n ? "...\"" : "\"");
    for (std::size_t i = 0; i < n; ++i)
        out += fmt::format("{:02x}", bytes[i]);
    return out + (bytes.size() > n ? "..." : "");
}

ExpectationOutcome check_bytes(const State& s, const Expectation& e, const std::string& language) {
    auto in = [&](std::string en, std::string zh) { return say(language, std::move(en), std::move(zh)); };
    const Value* mr_name = e.value.find("mr");
    const std::string name = mr_name ? mr_name->text : "";
    const auto it = s.mrs.find(name);
    const auto offset = static_cast<std::size_t>(u64(e.value.find("offset"), 0));
    std::string what;
    std::vector<std::uint8_t> expected;
    std::optional<bool> zero;
    std::shared_ptr<MemoryRegion> other;
    std::size_t other_offset = 0;
    if (const Value* t = e.value.find("text")) {
        expected.assign(t->text.begin(), t->text.end());
        what = "\"" + t->text + "\"";
    } else if (const Value* h = e.value.find("hex")) {
        expected = hex_bytes(h->text);
        what = in("hex ", "十六进制 ") + h->text;
    } else if (const Value* u = e.value.find("u64")) {
        const std::uint64_t v = u->as_u64();
        expected.resize(8);
        std::memcpy(expected.data(), &v, 8);
        what = fmt::format("u64 {}", v);
    } else if (const Value* z = e.value.find("zero")) {
        zero = z->boolean;
        what = z->boolean ? in("all zero", "全为零") : in("not all zero", "不全为零");
    } else if (const Value* same = e.value.find("same_as")) {
        const Value* other_name = same->find("mr");
        const auto o = s.mrs.find(other_name ? other_name->text : "");
        if (o != s.mrs.end()) other = o->second;
        other_offset = static_cast<std::size_t>(u64(same->find("offset"), 0));
        const std::string other_text = other_name ? other_name->text : std::string("?");
        what = in("the same as " + other_text, "与 " + other_text + " 相同");
    }
    if (it == s.mrs.end())
        return make("bytes", name + " " + what, false,
                    in(name + " does not exist (deregistered?)", name + " 不存在（已注销？）"), &e, language);
    const auto& mr = *it->second;
    std::size_t length = 0;
    if (const Value* l = e.value.find("length"))
        length = static_cast<std::size_t>(l->as_u64());
    else if (!expected.empty())
        length = expected.size();
    else
        length = offset <= mr.length() ? mr.length() - offset : 0;
    if (other) length = std::min(length, other->length() > other_offset ? other->length() - other_offset : 0);
    const std::string description = fmt::format("{}[{}..{}) {}", name, offset, offset + length, what);
    if (offset + length > mr.length())
        return make("bytes", description, false,
                    in(fmt::format("the range runs past the end of {} ({} bytes)", name, mr.length()),
                       fmt::format("范围超出了 {} 的末尾（{} 字节）", name, mr.length())),
                    &e, language);
    const std::span<const std::uint8_t> got(mr.data() + offset, length);
    if (zero) {
        const auto nonzero = std::find_if(got.begin(), got.end(), [](std::uint8_t b) { return b != 0; });
        const bool all_zero = nonzero == got.end();
        const std::size_t at = offset + static_cast<std::size_t>(nonzero - got.begin());
        const std::string observed =
            all_zero
                ? in(fmt::format("all {} bytes are zero", length), fmt::format("全部 {} 字节都是零", length))
                : in(fmt::format("byte {} is {}: {}", at, byte_text(*nonzero), preview(got)),
                     fmt::format("第 {} 字节是 {}：{}", at, byte_text(*nonzero), preview(got)));
        return make("bytes", description, all_zero == *zero, observed, &e, language);
    }
    if (other) {
        if (other_offset + length > other->length())
            return make("bytes", description, false,
                        in("the range runs past the end of the other region", "范围超出了另一个区域的末尾"),
                        &e, language);
        expected.assign(other->data() + other_offset, other->data() + other_offset + length);
    }
    if (expected.empty())
        return make("bytes", description, length == 0, in("nothing to compare", "没有可比较的字节"), &e,
                    language);
    for (std::size_t i = 0; i < length; ++i) {
        const std::uint8_t want = expected[i % expected.size()];
        if (got[i] != want)
            return make("bytes", description, false,
                        in(fmt::format("differs at offset {}: {} instead of {}; the bytes are {}", offset + i,
                                       byte_text(got[i]), byte_text(want), preview(got)),
                           fmt::format("在偏移 {} 处不同：是 {} 而不是 {}；这些字节是 {}", offset + i,
                                       byte_text(got[i]), byte_text(want), preview(got))),
                        &e, language);
    }
    return make("bytes", description, true,
                in(fmt::format("equal ({} bytes: {})", length, preview(got)),
                   fmt::format("相等（{} 字节：{}）", length, preview(got))),
                &e, language);
}

// ---- compare -------------------------------------------------------------------------------------------

std::optional<double> number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        std::uint64_t v = 0;
        const auto [p, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
        if (ec == std::errc() && p == text.data() + text.size()) return static_cast<double>(v);
        return std::nullopt;
    }
    double v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && p == text.data() + text.size()) return v;
    return std::nullopt;
}

/// An operand as text: a number, or the value a path names (with or without braces); nullopt: unknown.
std::optional<std::string> operand(const State& s, const Value* v, std::string& name) {
    if (!v) return std::nullopt;
    if (v->kind == Value::Kind::integer) {
        name = v->unsigned_value ? std::to_string(v->as_u64()) : std::to_string(v->integer);
        return name;
    }
    std::string path = v->text;
    if (path.size() > 2 && path.front() == '{' && path.back() == '}') path = path.substr(1, path.size() - 2);
    name = path;
    if (const auto it = s.values.find(path); it != s.values.end()) return it->second;
    if (number(path)) return path;
    return std::nullopt;
}

ExpectationOutcome check_compare(const State& s, const Expectation& e, const std::string& language,
                                 const std::string& kind = "compare", const std::string& prefix = {}) {
    std::string left_name, right_name;
    const auto left = operand(s, e.value.find("left"), left_name);
    const auto right = operand(s, e.value.find("right"), right_name);
    const Value* op_value = e.value.find("op");
    const std::string op = op_value ? op_value->text : "==";
    const Value* factor_value = e.value.find("factor");
    const std::string factor_text = factor_value ? value_text(*factor_value) : "";
    const auto factor = factor_text.empty() ? std::optional<double>(1.0) : number(factor_text);
    const Value* plus_value = e.value.find("plus");
    const std::int64_t plus = plus_value ? plus_value->integer : 0;
    const std::string plus_text =
        plus == 0 ? "" : fmt::format(" {} {}", plus < 0 ? "-" : "+", std::abs(plus));
    const std::string description = fmt::format(
        "{} {} {}{}{}", left_name, op, factor_text.empty() ? "" : factor_text + " x ", right_name, plus_text);
    if (!left || !right)
        return make(kind, prefix + description, false,
                    say(language, fmt::format("no value for {}", !left ? left_name : right_name),
                        fmt::format("{} 没有值", !left ? left_name : right_name)),
                    &e, language);
    const auto l = number(*left);
    const auto r = number(*right);
    if (l && r && factor) {
        const double rv = *r * *factor + static_cast<double>(plus);
        bool held = false;
        if (op == "<") held = *l < rv;
        if (op == "<=") held = *l <= rv;
        if (op == "==") held = *l == rv;
        if (op == "!=") held = *l != rv;
        if (op == ">=") held = *l >= rv;
        if (op == ">") held = *l > rv;
        auto shown = [](const std::string& name, const std::string& value) {
            return name == value ? value : name + " = " + value;
        };
        std::string right_shown = shown(right_name, *right);
        if (!factor_text.empty() || plus != 0)
            right_shown = fmt::format("{}({}){} = {}", factor_text.empty() ? "" : factor_text + " x ",
                                      right_shown, plus_text, rv);
        return make(kind, prefix + description, held, shown(left_name, *left) + ", " + right_shown, &e,
                    language);
    }
    if ((op == "==" || op == "!=") && plus == 0) {
        const bool equal = *left == *right;
        return make(kind, prefix + description, op == "==" ? equal : !equal,
                    fmt::format("{} = {}, {} = {}", left_name, *left, right_name, *right), &e, language);
    }
    return make(kind, prefix + description, false,
                say(language,
                    fmt::format("{} = {}, {} = {}: not both numbers", left_name, *left, right_name, *right),
                    fmt::format("{} = {}，{} = {}：两者不都是数字", left_name, *left, right_name, *right)),
                &e, language);
}

/// Checks one expectation of a step that ran (not `fails`, not one that does not apply), appending its
/// outcome.
void check_one(State& s, const Expectation& e, const StepResult& r, const std::string& language,
               std::vector<ExpectationOutcome>& out) {
    if (e.kind == "completions") {
        const auto wanted = static_cast<std::size_t>(e.value.integer);
        std::string observed =
            say(language, fmt::format("{} within {} ms", r.completions.size(), r.timeout_ms),
                fmt::format("{} 毫秒内收到 {} 个", r.timeout_ms, r.completions.size()));
        if (!r.completions.empty())
            observed +=
                say(language, "; the first: ", "；第一个：") + describe_completion(r.completions.front());
        out.push_back(
            make("completions",
                 say(language, fmt::format("exactly {}", wanted), fmt::format("恰好 {} 个", wanted)),
                 r.completions.size() == wanted, observed, &e, language));
    } else if (e.kind == "completion") {
        out.push_back(check_completion(s, e, r, language));
    } else if (e.kind == "qp_state") {
        try {
            out.push_back(check_qp_state(s, e, language));
        } catch (const RdmaError& query_error) {
            out.push_back(make("qp_state", value_text(e.value), false,
                               error_text(query_error.info(), language), &e, language));
        }
    } else if (e.kind == "bytes") {
        out.push_back(check_bytes(s, e, language));
    } else if (e.kind == "compare") {
        out.push_back(check_compare(s, e, language));
    } else if (e.kind == "says") {
        // A statement of the step's text, checked on this run's values: "the text says '...': left op right".
        const Value* words = e.value.find(language.substr(0, 2) == "zh" ? "zh" : "en");
        const std::string said = words ? render(words->text, s.values) : std::string();
        const std::string prefix =
            say(language, fmt::format("the text says \"{}\": ", said), fmt::format("正文说“{}”：", said));
        if (const Value* is = e.value.find("is")) {
            std::string left_name;
            const auto left = operand(s, e.value.find("left"), left_name);
            const auto left_number = left ? number(*left) : std::nullopt;
            const auto is_number = number(is->text);
            const bool held =
                left && (left_number && is_number ? *left_number == *is_number : *left == is->text);
            out.push_back(
                make("says", prefix + say(language, left_name + " is ", left_name + " 为 ") + is->text, held,
                     left ? left_name + " = " + *left
                          : say(language, "no value for " + left_name, left_name + " 没有值"),
                     &e, language));
        } else {
            out.push_back(check_compare(s, e, language, "says", prefix));
        }
    } else if (e.kind == "cm_event") {
        const auto it = r.results.find("event");
        const std::string got =
            it == r.results.end() ? say(language, "no event read", "没有读到事件") : it->second;
        std::string observed = got;
        if (got != "none" && r.results.count("status"))
            observed += say(language, ", status ", "，状态 ") + r.results.at("status");
        if (got == "none")
            observed = say(language, fmt::format("no event within {} ms", r.timeout_ms),
                           fmt::format("{} 毫秒内没有事件", r.timeout_ms));
        out.push_back(make("cm_event", e.value.text, got == e.value.text, observed, &e, language));
    } else if (e.kind == "event") {
        const bool wanted = e.value.boolean;
        const std::string observed = !r.event_arrived ? say(language, "no wait happened", "没有等待")
                                     : *r.event_arrived
                                         ? say(language, "an event arrived", "收到了一个事件")
                                         : say(language, fmt::format("no event within {} ms", r.timeout_ms),
                                               fmt::format("{} 毫秒内没有事件", r.timeout_ms));
        out.push_back(make("event",
                           wanted ? say(language, "an event arrives", "收到一个事件")
                                  : say(language, "no event arrives", "没有事件到达"),
                           r.event_arrived && *r.event_arrived == wanted, observed, &e, language));
    } else if (e.kind == "async_event") {
        out.push_back(check_async_event(s, e, r, language));
    } else {
        out.push_back(make(e.kind, value_text(e.value), false,
                           say(language, "the runner does not know this kind", "运行器不认识这种预期"), &e,
                           language));
    }
}

} // namespace

ExpectationOutcome check_prediction(const State& s, const Prediction& prediction, StepOutcome& outcome) {
    std::string values;
    for (const auto& c : prediction.choices)
        values += (values.empty() ? "" : ", ") + c.value;
    const auto it = s.values.find(prediction.answer);
    const std::string answer = it == s.values.end() ? "none (no such value after the step)" : it->second;
    outcome.predicted_answer = answer;
    const bool offered = std::any_of(prediction.choices.begin(), prediction.choices.end(),
                                     [&](const auto& c) { return c.value == answer; });
    ExpectationOutcome x;
    x.kind = "prediction";
    x.description = say(s.options.language,
                        fmt::format("the answer {} is one of the choices: {}", prediction.answer, values),
                        fmt::format("答案 {} 是选项之一：{}", prediction.answer, values));
    x.held = offered;
    x.observed = fmt::format("{} = {}", prediction.answer, answer);
    return x;
}

ExpectationOutcome check_when(const State& s, const Value& when, const std::string& language) {
    Expectation condition;
    condition.kind = "compare";
    condition.value = when;
    return check_compare(s, condition, language);
}

std::vector<ExpectationOutcome> check_expectations(State& s, const Step& step, const StepResult& r,
                                                   const std::optional<ErrorInfo>& error, bool runner_error) {
    const std::string& language = s.options.language;
    std::vector<ExpectationOutcome> out;
    const Expectation* fails = nullptr;
    const Expectation* completions = nullptr;
    for (const auto& e : step.expect) {
        if (e.kind == "fails") fails = &e;
        if (e.kind == "completions") completions = &e;
    }
    // The implicit expectations: a step without `fails` succeeds; a poll without `completions` gets its
    // count.
    if (fails) {
        out.push_back(check_fails(*fails, error, runner_error, language));
    } else {
        out.push_back(make("succeeds", say(language, "the action succeeds", "操作成功"), !error,
                           error ? error_text(*error, language) : say(language, "succeeded", "成功了"),
                           nullptr, language));
    }
    const bool unexpected = error && !fails;
    const std::string action_failed = say(language, "not checked: the action failed", "未检查：操作失败了");
    auto not_checked = [&](const Expectation& e) {
        out.push_back(make(e.kind, value_text(e.value), false, action_failed, &e, language));
    };
    if (step.action == "poll_cq" && !completions) {
        const auto wanted = static_cast<std::size_t>(integer(step, "count", 1));
        const std::string description = say(language, fmt::format("exactly {} (the poll's count)", wanted),
                                            fmt::format("恰好 {} 个（轮询的 count）", wanted));
        if (unexpected)
            out.push_back(make("completions", description, false, action_failed, nullptr, language));
        else
            out.push_back(
                make("completions", description, r.completions.size() == wanted,
                     say(language, fmt::format("{} within {} ms", r.completions.size(), r.timeout_ms),
                         fmt::format("{} 毫秒内收到 {} 个", r.timeout_ms, r.completions.size())),
                     nullptr, language));
    }
    const DeviceClass device_class = s.device_class();
    for (const auto& e : step.expect) {
        if (e.kind == "fails") continue;
        if (e.device != DeviceClass::unknown && device_class != DeviceClass::unknown &&
            e.device != device_class) {
            auto zh_class = [](DeviceClass c) {
                return c == DeviceClass::software ? "软件" : c == DeviceClass::hardware ? "硬件" : "未知";
            };
            auto outcome = make(
                e.kind, value_text(e.value), true,
                say(language,
                    fmt::format("not checked: this expectation is for {} devices, and {} is {}",
                                device_class_name(e.device), s.device->name, device_class_name(device_class)),
                    fmt::format("未检查：这条预期针对{}设备，而 {} 是{}设备", zh_class(e.device),
                                s.device->name, zh_class(device_class))),
                &e, language);
            outcome.applies = false;
            out.push_back(std::move(outcome));
            continue;
        }
        if (e.when) {
            // Evaluated on the values after the step, like the expectation itself.
            const auto condition = check_when(s, *e.when, language);
            if (!condition.held) {
                auto outcome = make(e.kind, value_text(e.value), true,
                                    say(language,
                                        fmt::format("not checked: when {} did not hold ({})",
                                                    condition.description, condition.observed),
                                        fmt::format("未检查：条件 {} 不成立（{}）", condition.description,
                                                    condition.observed)),
                                    &e, language);
                outcome.applies = false;
                out.push_back(std::move(outcome));
                continue;
            }
        }
        if (unexpected) {
            not_checked(e);
            continue;
        }
        // A value the runner cannot read (a hex text that is not hex, an index that is not a number) breaks
        // this expectation with the reason, and the run goes on: no exception leaves a step.
        try {
            check_one(s, e, r, language, out);
        } catch (const std::exception& problem) {
            out.push_back(make(e.kind, value_text(e.value), false,
                               say(language,
                                   fmt::format("not checked: the runner could not read this expectation ({})",
                                               problem.what()),
                                   fmt::format("未检查：运行器读不懂这条预期（{}）", problem.what())),
                               &e, language));
        }
    }
    return out;
}

} // namespace rdmalab::labs::run
