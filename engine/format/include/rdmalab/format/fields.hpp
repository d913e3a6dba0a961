// Typed reading of what is inside trace events (`ids`, `data`). Events come from files and from another
// process, so any field may hold any JSON type: a reader asks for the type it needs and a mismatch is
// reported as FieldError with the field's path ("data.changed[0].offset: expected an integer from 0 to
// 18446744073709551615, found number -5") instead of ending the program with nlohmann::json::type_error.
// describe() and the app's models read events only through these.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace rdmalab {

/// A field of an event holds another JSON type than its reader needs, or a number out of its range.
class FieldError : public std::runtime_error {
  public:
    FieldError(std::string field, std::string problem)
        : std::runtime_error("field '" + field + "': " + problem), field_(std::move(field)),
          problem_(std::move(problem)) {}
    const std::string& field() const { return field_; }     ///< "data.device_info.software"
    const std::string& problem() const { return problem_; } ///< "expected a boolean, found string"

  private:
    std::string field_;
    std::string problem_;
};

/// Any JSON value as one line of text: a string as it is, anything else as JSON. Never throws.
inline std::string to_text(const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// A read-only, typed view of one JSON object of an event, named by its path: `Fields(event.data, "data")`.
/// Absent fields give the fallback (or nothing), and so does null, which the format uses for "not
/// measured"; a field of another type throws FieldError.
class Fields {
  public:
    Fields(const nlohmann::json& object, std::string path) : object_(&object), path_(std::move(path)) {
        if (!object.is_object()) throw FieldError(path_, mismatch("an object", object));
    }

    const std::string& path() const { return path_; }
    const nlohmann::json& json() const { return *object_; }
    bool has(std::string_view key) const { return given(key) != nullptr; }
    /// The raw value (null included), for readers that render any JSON; nullptr when absent.
    const nlohmann::json* raw(std::string_view key) const {
        const auto it = object_->find(key);
        return it == object_->end() ? nullptr : &*it;
    }

    /// The field as T (bool, std::string, double, or an integer type it must fit); nothing when absent.
    template <typename T> std::optional<T> find(std::string_view key) const {
        const auto* value = given(key);
        if (value == nullptr) return std::nullopt;
        return convert<T>(*value, [&] { return child(key); });
    }
    template <typename T> T get(std::string_view key, T fallback) const {
        auto value = find<T>(key);
        return value ? std::move(*value) : std::move(fallback);
    }
    /// The field as text, whatever its type (see to_text); `fallback` when absent. Never throws.
    std::string text(std::string_view key, std::string_view fallback = {}) const {
        const auto* value = given(key);
        return value == nullptr ? std::string(fallback) : to_text(*value);
    }
    /// A nested object; an empty one when absent.
    Fields object(std::string_view key) const {
        const auto* value = given(key);
        return value == nullptr ? Fields(empty_object(), child(key)) : Fields(*value, child(key));
    }
    /// An array of objects; empty when absent.
    std::vector<Fields> objects(std::string_view key) const {
        std::vector<Fields> out;
        for_each_element(key, [&](const nlohmann::json& item, std::size_t index) {
            out.emplace_back(item, element(key, index));
        });
        return out;
    }
    /// An array whose elements are all T; empty when absent.
    template <typename T> std::vector<T> list(std::string_view key) const {
        std::vector<T> out;
        for_each_element(key, [&](const nlohmann::json& item, std::size_t index) {
            out.push_back(convert<T>(item, [&] { return element(key, index); }));
        });
        return out;
    }
    /// An array of names or lines, each element as text (see to_text); empty when absent.
    std::vector<std::string> texts(std::string_view key) const {
        std::vector<std::string> out;
        for_each_element(key, [&](const nlohmann::json& item, std::size_t) { out.push_back(to_text(item)); });
        return out;
    }

  private:
    /// The value when it is there and not null.
    const nlohmann::json* given(std::string_view key) const {
        const auto* value = raw(key);
        return value == nullptr || value->is_null() ? nullptr : value;
    }
    std::string child(std::string_view key) const { return path_ + "." + std::string(key); }
    std::string element(std::string_view key, std::size_t index) const {
        return child(key) + "[" + std::to_string(index) + "]";
    }

    template <typename Visit> void for_each_element(std::string_view key, Visit visit) const {
        const auto* value = given(key);
        if (value == nullptr) return;
        if (!value->is_array()) throw FieldError(child(key), mismatch("an array", *value));
        std::size_t index = 0;
        for (const auto& item : *value)
            visit(item, index++);
    }

    static const nlohmann::json& empty_object() {
        static const nlohmann::json empty = nlohmann::json::object();
        return empty;
    }

    static std::string mismatch(const std::string& expected, const nlohmann::json& found) {
        const std::string what =
            found.is_number() ? "number " + found.dump() : std::string(found.type_name());
        return "expected " + expected + ", found " + what;
    }

    /// `path()` names the value; called only for an error, as building a path costs an allocation.
    template <typename T, typename Path> static T convert(const nlohmann::json& value, Path path) {
        if constexpr (std::is_same_v<T, bool>) {
            if (!value.is_boolean()) throw FieldError(path(), mismatch("a boolean", value));
            return value.get<bool>();
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!value.is_string()) throw FieldError(path(), mismatch("a string", value));
            return value.get<std::string>();
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!value.is_number()) throw FieldError(path(), mismatch("a number", value));
            return value.get<T>();
        } else {
            static_assert(std::is_integral_v<T>, "Fields reads bool, std::string, numbers");
            if (!value.is_number_integer()) throw FieldError(path(), mismatch("an integer", value));
            // Checked as the JSON holds it (unsigned or signed 64-bit), so no conversion can wrap.
            constexpr auto lowest = std::numeric_limits<T>::min();
            constexpr auto highest = std::numeric_limits<T>::max();
            const bool fits = value.is_number_unsigned() ? std::in_range<T>(value.get<std::uint64_t>())
                                                         : std::in_range<T>(value.get<std::int64_t>());
            if (!fits)
                throw FieldError(path(), mismatch("an integer from " + std::to_string(lowest) + " to " +
                                                      std::to_string(highest),
                                                  value));
            return value.is_number_unsigned() ? static_cast<T>(value.get<std::uint64_t>())
                                              : static_cast<T>(value.get<std::int64_t>());
        }
    }

    const nlohmann::json* object_;
    std::string path_;
};

} // namespace rdmalab
