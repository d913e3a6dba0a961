// Texts of labs: English and Simplified Chinese, with variants by device class, and their placeholders.
// Qt-free; the format is described in docs/lab-format.md.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace rdmalab::labs {

/// A text in English and Simplified Chinese.
struct LocalizedText {
    std::string en;
    std::string zh;
    /// Text in `language` ("en" or "zh"), falling back to English when that translation is empty.
    const std::string& get(std::string_view language) const;
};

/// What kind of device a lab runs on, as the trace's `session` event says (data.device_info.software): a
/// software device (SoftRoCE, rdma_rxe) does the NIC's work in the kernel on a CPU, a hardware RNIC does it
/// in the NIC. `unknown` when the trace does not say (an old recording, or before the session event).
enum class DeviceClass { unknown, software, hardware };

/// "software", "hardware" or "unknown": the words lab files use for a device class.
std::string_view device_class_name(DeviceClass device);

/// A text that may differ by device class (docs/lab-format.md, "Device variants"): `common` is the text for
/// any device, and `software` / `hardware` replace it on that class of device. Each part's `en` is empty when
/// the file does not give it; `common.en` may be empty only when both variants are given.
struct DeviceText {
    LocalizedText common;
    LocalizedText software;
    LocalizedText hardware;
    /// The variant written for `device`, or nullptr when there is none (always nullptr for `unknown`).
    const LocalizedText* variant(DeviceClass device) const;
    /// The text to show on `device` in `language`: the device's variant when there is one, else the common
    /// text; for an unknown device without a common text, both variants, each under a heading naming its
    /// class. Empty when the file gave no text at all.
    std::string get(DeviceClass device, std::string_view language) const;
    /// True when the text has a software or a hardware variant.
    bool varies() const { return !software.en.empty() || !hardware.en.empty(); }
};

/// A source a lab's claims can be checked against.
struct Reference {
    std::string title; ///< e.g. "ibv_post_send(3)"
    std::string where; ///< e.g. "rdma-core man page"
};

/// Replaces {name} placeholders (value paths such as {B.buf.rkey}) with values; unknown placeholders stay as
/// written.
std::string render(const std::string& text, const std::map<std::string, std::string>& values);

} // namespace rdmalab::labs
