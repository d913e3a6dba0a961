#include "rdmalab/labs/text.hpp"

namespace rdmalab::labs {

const std::string& LocalizedText::get(std::string_view language) const {
    if (language.substr(0, 2) == "zh" && !zh.empty()) return zh;
    return en;
}

std::string_view device_class_name(DeviceClass device) {
    switch (device) {
    case DeviceClass::software:
        return "software";
    case DeviceClass::hardware:
        return "hardware";
    case DeviceClass::unknown:
        break;
    }
    return "unknown";
}

const LocalizedText* DeviceText::variant(DeviceClass device) const {
    if (device == DeviceClass::software && !software.en.empty()) return &software;
    if (device == DeviceClass::hardware && !hardware.en.empty()) return &hardware;
    return nullptr;
}

std::string DeviceText::get(DeviceClass device, std::string_view language) const {
    if (const auto* text = variant(device)) return text->get(language);
    if (!common.en.empty()) return common.get(language);
    const bool zh = language.substr(0, 2) == "zh";
    std::string out;
    auto part = [&](const LocalizedText& text, const char* en_heading, const char* zh_heading) {
        if (text.en.empty()) return;
        if (!out.empty()) out += "\n\n";
        out += std::string(zh ? zh_heading : en_heading) + "\n" + text.get(language);
    };
    part(software, "On a software device (SoftRoCE):", "在软件设备（SoftRoCE）上：");
    part(hardware, "On a hardware RDMA NIC:", "在 RDMA 硬件网卡上：");
    return out;
}

std::string render(const std::string& text, const std::map<std::string, std::string>& values) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '{') {
            const auto close = text.find('}', i + 1);
            if (close != std::string::npos) {
                const auto name = text.substr(i + 1, close - i - 1);
                if (auto v = values.find(name); v != values.end()) {
                    out += v->second;
                    i = close + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    return out;
}

} // namespace rdmalab::labs
