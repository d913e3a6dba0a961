// The RoCE v2 decoder (rdmalab/format/roce.hpp) on real packets: tests/data/wire/*.pcap were captured on the
// wire between the two SoftRoCE hosts of the test bed (tests/softroce/wire-test.sh: `op write|read|send
// --size 8192` at path MTU 1024, host 1's NIC). Every packet decodes to its end with its ICRC verified, the
// decoding agrees with tshark's field by field, and damaged or cut frames say where and why they stop.
#include "testutil.hpp"

#include "rdmalab/format/roce.hpp"

#include <QFile>
#include <QProcess>
#include <QtTest>

#include <map>
#include <vector>

using namespace rdmalab::packet;

namespace {

using Frame = std::vector<std::uint8_t>;

QString capturePath(const QString& name) {
    return RDMALAB_SOURCE_DIR + "/tests/data/wire/" + name + ".pcap";
}

/// The frames of a classic pcap file (libpcap's format: a 24-byte file header, then a 16-byte header
/// before each frame), as tcpdump -w writes them on this machine (little-endian, microseconds).
std::vector<Frame> readPcap(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = file.readAll();
    auto u32 = [&](qsizetype at) {
        return static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at])) |
               static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at + 1])) << 8 |
               static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at + 2])) << 16 |
               static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at + 3])) << 24;
    };
    std::vector<Frame> frames;
    if (bytes.size() < 24 || u32(0) != 0xa1b2c3d4) return frames;
    for (qsizetype at = 24; at + 16 <= bytes.size();) {
        const auto captured = static_cast<qsizetype>(u32(at + 8));
        at += 16;
        if (at + captured > bytes.size()) break;
        frames.emplace_back(bytes.begin() + at, bytes.begin() + at + captured);
        at += captured;
    }
    return frames;
}

/// The RC connection's packets of a capture (QP 1 carries rdma_cm's MADs).
std::vector<RocePacket> connectionPackets(const QString& name) {
    std::vector<RocePacket> out;
    for (const auto& frame : readPcap(capturePath(name))) {
        auto packet = decode_frame(frame);
        if (packet.dest_qp != 1) out.push_back(std::move(packet));
    }
    return out;
}

/// Fields both decoders name the same way, compared packet by packet.
const QStringList kSharedFields{"eth.dst",
                                "eth.src",
                                "eth.type",
                                "ip.version",
                                "ip.hdr_len",
                                "ip.dsfield.dscp",
                                "ip.dsfield.ecn",
                                "ip.len",
                                "ip.id",
                                "ip.flags.df",
                                "ip.ttl",
                                "ip.proto",
                                "ip.checksum",
                                "ip.src",
                                "ip.dst",
                                "udp.srcport",
                                "udp.dstport",
                                "udp.length",
                                "udp.checksum",
                                "infiniband.bth.opcode",
                                "infiniband.bth.se",
                                "infiniband.bth.m",
                                "infiniband.bth.padcnt",
                                "infiniband.bth.tver",
                                "infiniband.bth.p_key",
                                "infiniband.bth.destqp",
                                "infiniband.bth.a",
                                "infiniband.bth.psn",
                                "infiniband.reth.va",
                                "infiniband.reth.r_key",
                                "infiniband.reth.dmalen",
                                "infiniband.aeth.syndrome",
                                "infiniband.aeth.msn",
                                "infiniband.deth.q_key",
                                "infiniband.deth.srcqp",
                                "infiniband.atomiceth.swapdt",
                                "infiniband.atomiceth.cmpdt",
                                "infiniband.atomicacketh.origremdt"};

/// A field's value as tshark prints it with -T fields: decimal, 0x-hex, or an address.
QString ourText(const DecodedField& field) {
    if (field.abbrev == "eth.dst" || field.abbrev == "eth.src" || field.abbrev == "ip.src" ||
        field.abbrev == "ip.dst")
        return QString::fromStdString(field.text.substr(field.text.find(": ") + 2));
    return QString::number(field.value);
}

qulonglong tsharkNumber(const QString& text, bool& ok) {
    return text.startsWith("0x") ? text.mid(2).toULongLong(&ok, 16) : text.toULongLong(&ok, 10);
}

} // namespace

class RoceTest : public QObject {
    Q_OBJECT
  private slots:
    void theNetworkHeaderTablesLieInsideTheirHeaders() {
        for (const HeaderSpec* header : network_headers()) {
            QVERIFY(!header->fields.empty());
            for (const auto& f : header->fields) {
                const QString where = QString::fromUtf8(f.abbrev.data(), static_cast<int>(f.abbrev.size()));
                QVERIFY2(f.offset + f.length <= header->length, qPrintable(where + " ends past its header"));
                QVERIFY2(f.length <= 8 || f.base == Base::ipv6, qPrintable(where + " is wider than a value"));
            }
        }
    }

    void everyPacketOnTheWireDecodesToItsEndWithItsIcrcVerified() {
        int packets = 0;
        for (const QString name : {"write", "read", "send"}) {
            const auto frames = readPcap(capturePath(name));
            QVERIFY2(frames.size() >= 10, qPrintable(name + ": the capture is missing or short"));
            for (const auto& frame : frames) {
                const RocePacket packet = decode_frame(frame);
                const QString where = QString("%1 packet %2: %3")
                                          .arg(name)
                                          .arg(packets + 1)
                                          .arg(QString::fromStdString(packet.summary()));
                QVERIFY2(packet.roce, qPrintable(where));
                QVERIFY2(packet.stopped.empty(), qPrintable(where));
                QVERIFY2(packet.icrc.has_value(), qPrintable(where));
                QVERIFY2(packet.icrc->ok(), qPrintable(where));
                ++packets;
            }
        }
        QVERIFY(packets >= 40);
    }

    void anRdmaWriteOf8KiBIsFirstSixMiddleLastThenAnAckOfTheLast() {
        const auto packets = connectionPackets("write");
        QCOMPARE(packets.size(), std::size_t{9});
        QCOMPARE(packets[0].opcode, std::uint8_t{0x06});
        const DecodedField* reth = nullptr;
        for (const auto& h : packets[0].headers)
            if (h.abbrev == "infiniband.reth") reth = &h;
        QVERIFY2(reth, "the First carries a RETH");
        QCOMPARE(reth->find("infiniband.reth.dmalen")->value, std::uint64_t{8192});
        for (std::size_t i = 0; i < 8; ++i) {
            QCOMPARE(packets[i].opcode, std::uint8_t(i == 0 ? 0x06 : i == 7 ? 0x08 : 0x07));
            QCOMPARE(packets[i].payload_length, std::size_t{1024});
            QCOMPARE(packets[i].psn, packets[0].psn + static_cast<std::uint32_t>(i));
            if (i > 0) {
                bool hasReth = false;
                for (const auto& h : packets[i].headers)
                    hasReth = hasReth || h.abbrev == "infiniband.reth";
                QVERIFY2(!hasReth, "only the First carries the RETH");
            }
        }
        QVERIFY2(packets[7].ack_request, "the Last asks for an acknowledgement");
        const RocePacket& ack = packets[8];
        QCOMPARE(ack.opcode, std::uint8_t{0x11});
        QCOMPARE(ack.psn, packets[7].psn);
        QVERIFY(ack.syndrome.has_value());
        QCOMPARE(*ack.syndrome & 0xe0, 0x00); // an ACK, not a NAK
        QCOMPARE(ack.payload_length, std::size_t{0});
        const std::string summary = packets[0].summary();
        QVERIFY2(summary.find("RC RDMA WRITE First") != std::string::npos, summary.c_str());
        QVERIFY2(summary.find("len=8192") != std::string::npos, summary.c_str());
        QVERIFY2(summary.find("ICRC ok") != std::string::npos, summary.c_str());
    }

    void aReadIsOneRequestAndResponsesThatCarryAnAethOnTheFirstAndLast() {
        const auto packets = connectionPackets("read");
        QCOMPARE(packets.size(), std::size_t{9});
        QCOMPARE(packets[0].opcode, std::uint8_t{0x0c});
        QCOMPARE(packets[0].payload_length, std::size_t{0});
        for (std::size_t i = 1; i < 9; ++i) {
            const std::uint8_t want = i == 1 ? 0x0d : i == 8 ? 0x0f : 0x0e;
            QCOMPARE(packets[i].opcode, want);
            QCOMPARE(packets[i].syndrome.has_value(), want != 0x0e);
            QCOMPARE(packets[i].payload_length, std::size_t{1024});
            QCOMPARE(packets[i].psn, packets[0].psn + static_cast<std::uint32_t>(i - 1));
        }
    }

    void theDecoderAgreesWithTsharkFieldByField() {
        for (const QString name : {"write", "read", "send"}) {
            QStringList args{"-r", capturePath(name), "-T", "fields",
                             "-E", "separator=/t",    "-E", "occurrence=f"};
            for (const auto& field : kSharedFields)
                args << "-e" << field;
            QProcess tshark;
            tshark.start("tshark", args);
            QVERIFY2(tshark.waitForFinished(60000),
                     "tshark (resources/scripts/install-deps.sh installs it) did not run");
            QCOMPARE(tshark.exitCode(), 0);
            const QStringList lines =
                QString::fromUtf8(tshark.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
            const auto frames = readPcap(capturePath(name));
            QCOMPARE(lines.size(), static_cast<qsizetype>(frames.size()));
            int compared = 0;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                const QStringList theirs = lines[i].split('\t');
                QCOMPARE(theirs.size(), kSharedFields.size());
                const RocePacket packet = decode_frame(frames[static_cast<std::size_t>(i)]);
                std::map<QString, const DecodedField*> ours;
                for (const auto& header : packet.headers)
                    for (const auto& field : header.children)
                        ours[QString::fromStdString(field.abbrev)] = &field;
                for (qsizetype f = 0; f < kSharedFields.size(); ++f) {
                    const QString& abbrev = kSharedFields[f];
                    const auto found = ours.find(abbrev);
                    const QString where = QString("%1 frame %2 %3").arg(name).arg(i + 1).arg(abbrev);
                    if (theirs[f].isEmpty()) {
                        QVERIFY2(found == ours.end(), qPrintable(where + ": we decode it, tshark does not"));
                        continue;
                    }
                    QVERIFY2(found != ours.end(), qPrintable(where + ": tshark decodes it, we do not"));
                    const QString mine = ourText(*found->second);
                    bool numeric = false;
                    qulonglong value = tsharkNumber(theirs[f], numeric);
                    if (abbrev == "ip.hdr_len") value /= 4; // tshark in bytes, the field in 32-bit words
                    if (numeric)
                        QVERIFY2(value == found->second->value,
                                 qPrintable(where + ": tshark " + theirs[f] + ", ours " + mine));
                    else
                        QVERIFY2(theirs[f] == mine,
                                 qPrintable(where + ": tshark " + theirs[f] + ", ours " + mine));
                    ++compared;
                }
            }
            QVERIFY2(compared > 100, qPrintable(name + ": too few fields compared"));
        }
    }

    void aChangedByteMakesTheIcrcWrongAndTheSummarySaysSo() {
        auto frame = readPcap(capturePath("write"))[5];
        QVERIFY(decode_frame(frame).icrc->ok());
        frame[frame.size() - 100] ^= 0x01; // one bit of the payload
        const RocePacket packet = decode_frame(frame);
        QVERIFY(packet.icrc.has_value());
        QVERIFY(!packet.icrc->ok());
        QVERIFY(packet.summary().find("ICRC WRONG") != std::string::npos);
        // The variant fields are outside the ICRC: a router may change the TTL and the ECN bits (and so the
        // IP checksum) on the way, and the ICRC still holds.
        frame = readPcap(capturePath("write"))[5];
        frame[14 + 8] = 3;    // TTL
        frame[14 + 1] |= 0x3; // ECN: CE
        const RocePacket marked = decode_frame(frame);
        QVERIFY(marked.icrc->ok());
        QCOMPARE(marked.ecn, std::uint8_t{3});
    }

    void everyCutOfAFrameStopsWithWhereAndWhy() {
        const auto frame = readPcap(capturePath("write"))[5];
        for (std::size_t length = 0; length < frame.size(); ++length) {
            const RocePacket packet = decode_frame(std::span(frame).first(length));
            QVERIFY2(!packet.stopped.empty(), qPrintable(QString("cut at %1 bytes").arg(length)));
            QVERIFY2(packet.stopped.starts_with("at byte "), packet.stopped.c_str());
        }
        const RocePacket empty = decode_frame({});
        QVERIFY(empty.stopped.find("Ethernet II needs 14 bytes") != std::string::npos);
    }

    void trafficThatIsNotRoceSaysWhatItIs() {
        // An ARP request: EtherType 0x0806.
        Frame arp(42, 0);
        arp[12] = 0x08;
        arp[13] = 0x06;
        QCOMPARE(decode_frame(arp).stopped,
                 std::string("at byte 14: EtherType 0x0806 is neither IPv4 nor IPv6: not RoCE v2"));
        // A UDP datagram to port 53 (taken from a real frame, the port changed).
        auto dns = readPcap(capturePath("write"))[5];
        dns[14 + 20 + 2] = 0;
        dns[14 + 20 + 3] = 53;
        const RocePacket packet = decode_frame(dns);
        QVERIFY(!packet.roce);
        QCOMPARE(packet.stopped, std::string("at byte 42: UDP to port 53, not RoCE v2 (4791)"));
        QVERIFY(packet.summary().starts_with("not RoCE v2"));
    }

    void anRnrNakNamesItsTimerInMilliseconds() {
        QCOMPARE(rnr_timer_ms(0), 655.36);
        QCOMPARE(rnr_timer_ms(1), 0.01);
        QCOMPARE(rnr_timer_ms(14), 1.28);
        QCOMPARE(rnr_timer_ms(31), 491.52);
        QCOMPARE(aeth_syndrome_meaning(0x2e), std::string("RNR NAK (timer code 14: 1.28 ms)"));
    }
};

QTEST_GUILESS_MAIN(RoceTest)
#include "tst_roce.moc"
