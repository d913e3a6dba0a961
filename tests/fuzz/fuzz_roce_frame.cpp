// The RoCE v2 decoder (rdmalab/format/roce.hpp) on any bytes: one Ethernet frame, or a classic pcap file
// whose every frame is decoded (the seeds are real captures, one packet per file, so mutations land in
// the packet). The decoder must never crash, and its tree and summary must be writable as JSON.
#include "rdmalab/format/roce.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace {

void decode(std::span<const std::uint8_t> frame) {
    const auto packet = rdmalab::packet::decode_frame(frame);
    (void)rdmalab::packet::to_json(packet).dump();
}

std::uint32_t little_endian(std::span<const std::uint8_t> bytes) {
    return bytes[0] | std::uint32_t{bytes[1]} << 8 | std::uint32_t{bytes[2]} << 16 |
           std::uint32_t{bytes[3]} << 24;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    constexpr std::size_t kFileHeader = 24, kRecordHeader = 16;
    if (size < kFileHeader || little_endian(input) != 0xa1b2c3d4U) {
        decode(input);
        return 0;
    }
    for (std::size_t at = kFileHeader; at + kRecordHeader <= size;) {
        const std::size_t captured = little_endian(input.subspan(at + 8, 4));
        at += kRecordHeader;
        if (captured > size - at) {
            decode(input.subspan(at)); // a record cut short: what is there
            break;
        }
        decode(input.subspan(at, captured));
        at += captured;
    }
    return 0;
}
