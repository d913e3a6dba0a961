// The RoCE v2 decoder (rdmalab/format/roce.hpp) on real packets: tests/data/wire/*.pcap were captured on the
// wire between the two SoftRoCE hosts of the test bed (tests/softroce/wire-test.sh: `op write|read|send
// --size 8192` at path MTU 1024, host 1's NIC). Every packet decodes to its end with its ICRC verified, the
// decoding agrees with tshark's field by field, and damaged or cut frames say where and why they stop.
#include "testutil.hpp"

#include "rdmalab/format/roce.hpp"

#include <QDir>
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

/// One decoded field as the comparison needs it: its value, and its text after "Name: ".
struct OurField {
    std::uint64_t value = 0;
    QString text;
};
using OurFields = std::map<QString, OurField>;

OurFields fieldsOf(const RocePacket& packet) {
    OurFields out;
    for (const auto& header : packet.headers)
        for (const auto& field : header.children)
            out[QString::fromStdString(field.abbrev)] = {
                field.value, QString::fromStdString(field.text.substr(field.text.find(": ") + 2))};
    return out;
}

/// The same from a `packet` trace event's `decoded` object (docs/trace-format.md).
OurFields fieldsOf(const nlohmann::json& decoded) {
    OurFields out;
    for (const auto& header : decoded.value("headers", nlohmann::json::array()))
        for (const auto& field : header.value("children", nlohmann::json::array())) {
            const std::string text = field.value("text", "");
            out[QString::fromStdString(field.value("abbrev", ""))] = {
                field.value("value", std::uint64_t{0}),
                QString::fromStdString(text.substr(text.find(": ") + 2))};
        }
    return out;
}

/// A field's value as tshark prints it with -T fields: decimal, 0x-hex, or an address.
QString ourText(const QString& abbrev, const OurField& field) {
    if (abbrev == "eth.dst" || abbrev == "eth.src" || abbrev == "ip.src" || abbrev == "ip.dst")
        return field.text;
    return QString::number(field.value);
}

/// tshark's value of every shared field of every packet of `file`, one list per packet.
std::vector<QStringList> tsharkFields(const QString& file) {
    QStringList args{"-r", file, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"};
    for (const auto& field : kSharedFields)
        args << "-e" << field;
    QProcess tshark;
    tshark.start("tshark", args);
    if (!tshark.waitForFinished(60000) || tshark.exitCode() != 0) return {};
    std::vector<QStringList> out;
    for (const auto& line : QString::fromUtf8(tshark.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts))
        out.push_back(line.split('\t'));
    return out;
}

qulonglong tsharkNumber(const QString& text, bool& ok) {
    return text.startsWith("0x") ? text.mid(2).toULongLong(&ok, 16) : text.toULongLong(&ok, 10);
}

/// Compares our fields of each packet with tshark's; an empty string when they agree, else the first
/// difference. `compared` counts the fields compared.
QString differences(const QString& label, const std::vector<OurFields>& ours,
                    const std::vector<QStringList>& theirs, int& compared) {
    if (ours.size() != theirs.size())
        return QString("%1: we decoded %2 packets, tshark %3 (is tshark installed? "
                       "resources/scripts/install-deps.sh)")
            .arg(label)
            .arg(ours.size())
            .arg(theirs.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
        if (theirs[i].size() != kSharedFields.size()) return label + ": tshark printed an odd line";
        for (qsizetype f = 0; f < kSharedFields.size(); ++f) {
            const QString& abbrev = kSharedFields[f];
            auto found = ours[i].find(abbrev);
            // Wireshark shows an AtomicETH's address and key as infiniband.reth.va and .r_key; the tree
            // keeps every field under its own header's name.
            if (found == ours[i].end() && abbrev.startsWith("infiniband.reth."))
                found =
                    ours[i].find("infiniband.atomiceth." + abbrev.mid(QString("infiniband.reth.").size()));
            const QString where = QString("%1 packet %2 %3").arg(label).arg(i + 1).arg(abbrev);
            if (theirs[i][f].isEmpty()) {
                if (found != ours[i].end()) return where + ": we decode it, tshark does not";
                continue;
            }
            if (found == ours[i].end())
                return where + ": tshark decodes it (" + theirs[i][f] + "), we do not";
            const QString mine = ourText(abbrev, found->second);
            bool numeric = false;
            qulonglong value = tsharkNumber(theirs[i][f], numeric);
            if (abbrev == "ip.hdr_len") value /= 4; // tshark in bytes, the field in 32-bit words
            if (numeric ? value != found->second.value : theirs[i][f] != mine)
                return where + ": tshark " + theirs[i][f] + ", ours " + mine;
            ++compared;
        }
    }
    return {};
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
            std::vector<OurFields> ours;
            for (const auto& frame : readPcap(capturePath(name)))
                ours.push_back(fieldsOf(decode_frame(frame)));
            int compared = 0;
            const QString problem = differences(name, ours, tsharkFields(capturePath(name)), compared);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY2(compared > 100, qPrintable(name + ": too few fields compared"));
        }
    }

    // What the engine recorded of its own captures (`op --wire --json`; the pcapng it wrote beside them)
    // for every opcode and two faults: the decoded tree of each `packet` event agrees with tshark's
    // decoding of the pcapng, every ICRC verifies, and the faults drew their NAKs on the wire. The files
    // are tests/data/wire/*.host1.jsonl, or those of a fresh run of the test bed (RDMALAB_WIRE_CAPTURES,
    // set by tests/softroce/wire-test.sh).
    void theEnginesDecodingAgreesWithTshark() {
        const QString dir = qEnvironmentVariableIsSet("RDMALAB_WIRE_CAPTURES")
                                ? qEnvironmentVariable("RDMALAB_WIRE_CAPTURES")
                                : RDMALAB_SOURCE_DIR + "/tests/data/wire";
        const QStringList cases = QDir(dir).entryList({"*.host1.jsonl"}, QDir::Files, QDir::Name);
        QVERIFY2(
            cases.size() >= 9,
            qPrintable(QString("%1 holds %2 engine captures, not the 9 cases").arg(dir).arg(cases.size())));
        std::map<QString, std::vector<nlohmann::json>> decodedByCase;
        for (const QString& file : cases) {
            const QString name = file.chopped(QString(".host1.jsonl").size());
            QFile trace(dir + "/" + file);
            QVERIFY(trace.open(QIODevice::ReadOnly));
            std::vector<OurFields> ours;
            auto& decoded = decodedByCase[name];
            while (!trace.atEnd()) {
                const auto event = nlohmann::json::parse(trace.readLine().toStdString(), nullptr, false);
                if (!event.is_object() || event.value("kind", "") != "packet" ||
                    event.value("name", "") != "packet")
                    continue;
                decoded.push_back(event["data"]["decoded"]);
                ours.push_back(fieldsOf(decoded.back()));
                QVERIFY2(
                    decoded.back()["icrc"].value("ok", false),
                    qPrintable(name + ": " + QString::fromStdString(event["data"].value("summary", ""))));
            }
            QVERIFY2(ours.size() >= 3, qPrintable(name + ": too few packets"));
            int compared = 0;
            const QString problem =
                differences(name, ours, tsharkFields(dir + "/" + name + ".pcapng"), compared);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        auto hasSyndrome = [&](const QString& name, int mask, int want) {
            for (const auto& d : decodedByCase[name])
                if (d.contains("syndrome") && (d["syndrome"].get<int>() & mask) == want) return true;
            return false;
        };
        QVERIFY2(hasSyndrome("bad_rkey", 0xff, 0x62), "a wrong rkey draws a NAK with syndrome 0x62");
        QVERIFY2(hasSyndrome("no_recv", 0xe0, 0x20), "a Send with no receive posted draws an RNR NAK");
        for (const QString name : {"write_imm", "send_imm"}) {
            bool immediate = false;
            for (const auto& d : decodedByCase[name])
                for (const auto& h : d["headers"])
                    immediate = immediate || h.value("abbrev", "") == "infiniband.immdt";
            QVERIFY2(immediate, qPrintable(name + " carries an ImmDt"));
        }
        for (const QString name : {"cas", "faa"}) {
            bool request = false, reply = false;
            for (const auto& d : decodedByCase[name]) {
                request = request || d.value("opcode", 0) == (name == "cas" ? 0x13 : 0x14);
                reply = reply || d.value("opcode", 0) == 0x12;
            }
            QVERIFY2(request && reply, qPrintable(name + ": the atomic request and its ATOMIC Acknowledge"));
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
