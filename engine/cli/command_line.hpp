// The engine process's command lines (server.hpp): one line read with a bound on its length, parsed into a
// JSON object with the byte at fault named, and typed, checked access to the command's fields.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <istream>
#include <stdexcept>
#include <string>

namespace rdmalab::cli {

/// A command field of the wrong type or out of range; the reply names the field.
class CommandFieldError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// Typed, checked access to the fields of one command: a wrong type is a CommandFieldError naming the
/// field, never a library exception. (rdmalab/format/fields.hpp does the same for trace events, whose readers
/// need type checks only; commands also need ranges, and their errors use the protocol's wording.)
class CommandFields {
  public:
    explicit CommandFields(const nlohmann::json& command) : c_(command) {}

    bool has(const char* field) const { return c_.contains(field); }
    const nlohmann::json& raw(const char* field) const { return c_.at(field); }

    std::string string(const char* field, std::string fallback) const;
    bool boolean(const char* field, bool fallback) const;
    /// An integer in [lo, hi], or fallback when the field is absent.
    long long integer(const char* field, long long lo, long long hi, long long fallback) const;
    /// `v` as an integer in [lo, hi]; a CommandFieldError naming `field` otherwise.
    static long long integer_value(const std::string& field, const nlohmann::json& v, long long lo,
                                   long long hi);

    static CommandFieldError mismatch(const std::string& field, const char* expected,
                                      const nlohmann::json& v);
    /// A short rendering of a value for error messages (a long string or array is cut).
    static std::string brief(const nlohmann::json& v);

  private:
    const nlohmann::json& c_;
};

/// Parses a command line into `object`; returns why it is not a JSON object (empty when it is), naming
/// the byte at fault (1-based) so a sender can find it.
std::string read_object(const std::string& line, nlohmann::json& object);

/// Reads one line of at most `limit` bytes. Returns false at end of input. A longer line is consumed
/// to its end without being kept (memory stays bounded) and `too_long` is set.
bool read_line(std::istream& in, std::string& line, std::size_t limit, bool& too_long);

} // namespace rdmalab::cli
