// pcapng, written by hand (libpcap writes only the classic format, which has no per-packet comment):
// a Section Header Block, one Interface Description Block with nanosecond timestamps, an Enhanced
// Packet Block per frame with its comment. Block layout: the PCAP Next Generation Dump File Format
// (IETF draft-ietf-opsawg-pcapng), sections 4.1, 4.2 and 4.3; written in this machine's byte order,
// which the byte-order magic announces.
#include "rdmalab/engine/capture.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace rdmalab::wire {

namespace {

constexpr std::uint32_t kSectionHeader = 0x0a0d0d0a;
constexpr std::uint32_t kInterfaceDescription = 0x00000001;
constexpr std::uint32_t kEnhancedPacket = 0x00000006;
constexpr std::uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr std::uint16_t kLinkTypeEthernet = 1;
constexpr std::uint16_t kOptionEnd = 0;
constexpr std::uint16_t kOptionComment = 1;
constexpr std::uint16_t kOptionInterfaceName = 2;
constexpr std::uint16_t kOptionTimestampResolution = 9;

class Block {
  public:
    void u16(std::uint16_t v) { raw(&v, sizeof v); }
    void u32(std::uint32_t v) { raw(&v, sizeof v); }
    void u64(std::uint64_t v) { raw(&v, sizeof v); }
    void bytes(const void* data, std::size_t size) {
        raw(data, size);
        body_.append((4 - size % 4) % 4, '\0'); // every field ends on a 32-bit boundary
    }
    void option(std::uint16_t code, const std::string& value) {
        if (value.empty()) return;
        u16(code);
        u16(static_cast<std::uint16_t>(value.size()));
        bytes(value.data(), value.size());
    }
    void end_options() {
        u16(kOptionEnd);
        u16(0);
    }
    /// The block: type, total length, body, total length again.
    std::string finish(std::uint32_t type) const {
        const auto total = static_cast<std::uint32_t>(body_.size() + 12);
        std::string out;
        out.append(reinterpret_cast<const char*>(&type), 4);
        out.append(reinterpret_cast<const char*>(&total), 4);
        out += body_;
        out.append(reinterpret_cast<const char*>(&total), 4);
        return out;
    }

  private:
    void raw(const void* data, std::size_t size) { body_.append(static_cast<const char*>(data), size); }
    std::string body_;
};

} // namespace

void write_pcapng(const std::string& path, const std::string& netdev,
                  const std::vector<CapturedFrame>& frames, const std::vector<std::string>& comments) {
    std::string file;
    Block section;
    section.u32(kByteOrderMagic);
    section.u16(1); // version 1.0
    section.u16(0);
    section.u64(~std::uint64_t{0}); // section length not given
    section.option(kOptionComment, "captured by rdmalab");
    section.end_options();
    file += section.finish(kSectionHeader);

    Block interface;
    interface.u16(kLinkTypeEthernet);
    interface.u16(0);
    interface.u32(0); // no snapshot limit
    interface.option(kOptionInterfaceName, netdev);
    interface.option(kOptionTimestampResolution, std::string(1, '\x09')); // 10^-9 s
    interface.end_options();
    file += interface.finish(kInterfaceDescription);

    for (std::size_t i = 0; i < frames.size(); ++i) {
        const auto& frame = frames[i];
        Block packet;
        packet.u32(0); // interface 0
        packet.u32(static_cast<std::uint32_t>(frame.wire_ns >> 32));
        packet.u32(static_cast<std::uint32_t>(frame.wire_ns & 0xffffffffU));
        packet.u32(static_cast<std::uint32_t>(frame.bytes.size()));
        packet.u32(frame.wire_length);
        packet.bytes(frame.bytes.data(), frame.bytes.size());
        if (i < comments.size()) packet.option(kOptionComment, comments[i]);
        packet.end_options();
        file += packet.finish(kEnhancedPacket);
    }

    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (out == nullptr)
        throw std::runtime_error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
    const bool written = std::fwrite(file.data(), 1, file.size(), out) == file.size();
    const int write_errno = errno;
    if (std::fclose(out) != 0 || !written)
        throw std::runtime_error(
            fmt::format("cannot write {}: {}", path, std::strerror(written ? errno : write_errno)));
}

} // namespace rdmalab::wire
