// Reading and checking the engine process's command lines (command_line.hpp).
#include "command_line.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string_view>

namespace rdmalab::cli {

namespace {

const char* json_type(const nlohmann::json& v) {
    return v.is_number_integer() ? "integer" : v.type_name();
}

/// Offset (0-based) of the first byte that is not part of well-formed UTF-8 (a stray continuation byte, a
/// truncated sequence, an overlong form, a surrogate, beyond U+10FFFF), or npos.
std::size_t invalid_utf8_at(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto lead = static_cast<unsigned char>(s[i]);
        const std::size_t n = lead < 0x80             ? 1
                              : (lead & 0xE0) == 0xC0 ? 2
                              : (lead & 0xF0) == 0xE0 ? 3
                              : (lead & 0xF8) == 0xF0 ? 4
                                                      : 0;
        if (n == 0 || i + n > s.size()) return i;
        std::uint32_t cp = n == 1 ? lead : n == 2 ? lead & 0x1Fu : n == 3 ? lead & 0x0Fu : lead & 0x07u;
        for (std::size_t k = 1; k < n; ++k) {
            const auto next = static_cast<unsigned char>(s[i + k]);
            if ((next & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (next & 0x3Fu);
        }
        const bool overlong = (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += n;
    }
    return std::string_view::npos;
}

} // namespace

std::string CommandFields::string(const char* field, std::string fallback) const {
    if (!has(field)) return fallback;
    const auto& v = c_.at(field);
    if (!v.is_string()) throw mismatch(field, "a string", v);
    return v.get<std::string>();
}

bool CommandFields::boolean(const char* field, bool fallback) const {
    if (!has(field)) return fallback;
    const auto& v = c_.at(field);
    if (!v.is_boolean()) throw mismatch(field, "true or false", v);
    return v.get<bool>();
}

long long CommandFields::integer(const char* field, long long lo, long long hi, long long fallback) const {
    if (!has(field)) return fallback;
    return integer_value(field, c_.at(field), lo, hi);
}

long long CommandFields::integer_value(const std::string& field, const nlohmann::json& v, long long lo,
                                       long long hi) {
    const bool integral =
        v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(hi) : v.is_number_integer();
    if (!integral || v.get<long long>() < lo || v.get<long long>() > hi)
        throw CommandFieldError(
            fmt::format("field '{}' must be an integer in {} .. {} (got {})", field, lo, hi, brief(v)));
    return v.get<long long>();
}

CommandFieldError CommandFields::mismatch(const std::string& field, const char* expected,
                                          const nlohmann::json& v) {
    return CommandFieldError(fmt::format("field '{}' must be {} (got {})", field, expected, brief(v)));
}

std::string CommandFields::brief(const nlohmann::json& v) {
    if (v.is_array() || v.is_object()) return fmt::format("{} of {} entries", json_type(v), v.size());
    std::string text = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return fmt::format("{} {}", json_type(v), text);
}

std::string read_object(const std::string& line, nlohmann::json& object) {
    if (const auto nul = line.find('\0'); nul != std::string::npos)
        return fmt::format("a NUL byte at byte {}", nul + 1);
    if (const auto bad = invalid_utf8_at(line); bad != std::string_view::npos)
        return fmt::format("invalid UTF-8 at byte {}", bad + 1);
    try {
        object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
        return fmt::format("not valid JSON at byte {}", e.byte);
    } catch (const nlohmann::json::exception& e) {
        // A number beyond a double's range (1e400) is out_of_range, not a parse_error.
        return fmt::format("not valid JSON: {}", e.what());
    }
    if (!object.is_object()) return fmt::format("a JSON {}, not an object", object.type_name());
    return {};
}

bool read_line(std::istream& in, std::string& line, std::size_t limit, bool& too_long) {
    line.clear();
    too_long = false;
    std::streambuf* buf = in.rdbuf();
    bool any = false;
    for (;;) {
        const int ch = buf->sbumpc();
        if (ch == std::char_traits<char>::eof()) return any;
        any = true;
        if (ch == '\n') return true;
        if (line.size() < limit)
            line.push_back(static_cast<char>(ch));
        else
            too_long = true;
    }
}

} // namespace rdmalab::cli
