// The RoCE v2 decoder (rdmalab/format/roce.hpp) on real packets: tests/data/wire/*.pcap were captured on the
// wire between the two SoftRoCE hosts of the test bed (tests/softroce/wire-test.sh: `op write|read|send
// --size 8192` at path MTU 1024, host 1's NIC). Every packet decodes to its end with its ICRC verified, the
// decoding agrees with tshark's field by field, and damaged or cut frames say where and why they stop.
#include "testutil.hpp"

#include "rdmalab/format/packet_match.hpp"
#include "rdmalab/format/roce.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <map>
#include <optional>
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

/// A trace event of the requester's host, as the engine records it (packet_match.hpp reads these).
rdmalab::TraceEvent hostEvent(rdmalab::EventKind kind, std::uint32_t qpn, nlohmann::json data,
                              nlohmann::json ids = nlohmann::json::object()) {
    rdmalab::TraceEvent e;
    e.kind = kind;
    e.ids = std::move(ids);
    e.ids["qpn"] = qpn;
    data["ret"] = 0;
    e.data = std::move(data);
    return e;
}

/// A matcher that has seen QP `qpn` connected to `destQpn` at path MTU `mtu`, sending from `sqPsn`.
PacketMatcher connectedMatcher(std::uint32_t qpn, std::uint32_t destQpn, std::uint32_t mtu,
                               std::uint32_t sqPsn) {
    using rdmalab::EventKind;
    PacketMatcher m;
    m.observe(hostEvent(EventKind::QpState, qpn, {{"attrs", {{"dest_qp_num", destQpn}, {"path_mtu", mtu}}}}));
    m.observe(hostEvent(EventKind::QpState, qpn, {{"attrs", {{"sq_psn", sqPsn}}}}));
    return m;
}

void postSend(PacketMatcher& m, std::uint32_t qpn, std::uint64_t wrId, const char* opcode,
              std::uint64_t length) {
    m.observe(hostEvent(rdmalab::EventKind::PostWr, qpn,
                        {{"queue", "send"}, {"opcode", opcode}, {"length", length}}, {{"wr_id", wrId}}));
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

    // The requester's side of the same runs (host 2, A: *.host2.jsonl): the engine tied each packet of the
    // connection to the work request A posted: every request packet of a Write or Send, and every response
    // of a Read, numbered 1 to 8 of 8 with consecutive PSNs; each ACK or NAK to the request it answers.
    void theEnginesPacketsBelongToTheirWorkRequests() {
        const QString dir = qEnvironmentVariableIsSet("RDMALAB_WIRE_CAPTURES")
                                ? qEnvironmentVariable("RDMALAB_WIRE_CAPTURES")
                                : RDMALAB_SOURCE_DIR + "/tests/data/wire";
        const QStringList cases = QDir(dir).entryList({"*.host2.jsonl"}, QDir::Files, QDir::Name);
        QVERIFY2(
            cases.size() >= 10,
            qPrintable(QString("%1 holds %2 requester traces, not the 10 cases").arg(dir).arg(cases.size())));
        for (const QString& file : cases) {
            const QString name = file.chopped(QString(".host2.jsonl").size());
            QFile trace(dir + "/" + file);
            QVERIFY(trace.open(QIODevice::ReadOnly));
            std::optional<std::uint64_t> posted;
            std::vector<nlohmann::json> data; // the connection's packets (QP 1 carries rdma_cm's MADs)
            while (!trace.atEnd()) {
                const auto event = nlohmann::json::parse(trace.readLine().toStdString(), nullptr, false);
                if (!event.is_object()) continue;
                if (event.value("kind", "") == "post_wr" && event["data"].value("queue", "") == "send")
                    posted = event["ids"].value("wr_id", std::uint64_t{0});
                if (event.value("kind", "") == "packet" && event.value("name", "") == "packet" &&
                    event["ids"].value("qpn", 0) != 1)
                    data.push_back(event["data"]);
            }
            QVERIFY2(posted, qPrintable(name + ": no ibv_post_send in A's trace"));
            QVERIFY2(!data.empty(), qPrintable(name + ": no packet of the connection in A's trace"));
            std::map<std::string, std::vector<nlohmann::json>> byRole;
            for (const auto& d : data) {
                const QString what = name + ": " + QString::fromStdString(d.value("summary", ""));
                QVERIFY2(d.contains("owner"), qPrintable(what + " has no owner"));
                const auto& owner = d["owner"];
                QVERIFY2(owner.value("wr_id", std::uint64_t{0}) == *posted && !owner.value("peers", true),
                         qPrintable(what + " is not tied to WR " + QString::number(*posted) + ": " +
                                    QString::fromStdString(owner.dump())));
                byRole[owner.value("role", "")].push_back(d);
            }
            const bool multi = name == "write" || name == "send" || name == "read";
            const auto& carried = byRole[name == "read" ? "response" : "request"];
            if (multi) {
                QCOMPARE(carried.size(), std::size_t{8});
                for (std::size_t i = 0; i < 8; ++i) {
                    QCOMPARE(carried[i]["owner"].value("index", 0U), static_cast<unsigned>(i + 1));
                    QCOMPARE(carried[i]["owner"].value("count", 0U), 8U);
                    QCOMPARE(carried[i]["decoded"].value("psn", 0U),
                             carried[0]["decoded"].value("psn", 0U) + i);
                }
            }
            if (name == "loss") {
                // One packet dropped before A's capture: B's PSN-sequence NAK, then A's go-back-N resend.
                int resent = 0;
                for (const auto& d : byRole["request"])
                    resent += d["owner"].value("retransmission", false) ? 1 : 0;
                QVERIFY2(resent > 0, "loss: no retransmitted PSN in A's capture");
                bool sequenceNak = false;
                for (const auto& d : byRole["nak"])
                    sequenceNak = sequenceNak || d["decoded"].value("syndrome", 0) == 0x60;
                QVERIFY2(sequenceNak, "loss: no NAK with syndrome 0x60 (PSN sequence error) came back");
            }
            const char* answer = name == "bad_rkey" || name == "no_recv" ? "nak" : "ack";
            if (name != "read") // a Read's responses are its acknowledgement
                QVERIFY2(!byRole[answer].empty(),
                         qPrintable(name + ": no " + answer + " tied to the request"));
        }
    }

    // Packets to work requests (packet_match.hpp), on the real capture of host 1 (the responder, B): its
    // requests came from A's QP (the ACK's destination), sent from the first request's PSN.
    void eachPacketOfAWriteIsTiedToItsWorkRequest() {
        const auto packets = connectionPackets("write");
        QCOMPARE(packets.size(), std::size_t{9});
        const std::uint32_t qpA = packets[8].dest_qp, qpB = packets[0].dest_qp;
        // A 2000-byte Send posted first takes two PSNs at MTU 1024: the Write starts after them.
        PacketMatcher a = connectedMatcher(qpA, qpB, 1024, packets[0].psn - 2);
        postSend(a, qpA, 5, "SEND", 2000);
        postSend(a, qpA, 7, "RDMA_WRITE", 8192);
        for (std::size_t i = 0; i < 8; ++i) {
            const auto owner = a.attribute(packets[i], /*outgoing=*/true);
            QVERIFY(owner && owner->request);
            QCOMPARE(owner->role, PacketRole::Request);
            QCOMPARE(owner->request->wr_id, std::uint64_t{7});
            QCOMPARE(owner->index, static_cast<std::uint32_t>(i + 1));
            QCOMPARE(owner->count, 8U);
            QVERIFY(!owner->retransmission);
        }
        QCOMPARE(owner_text(*a.attribute(packets[8], false)),
                 std::string("WR 7 · ibv_post_send RDMA_WRITE 8192 B · acknowledged"));
        // The same PSN going out again is a retransmission of the same packet of the same request.
        const auto again = a.attribute(packets[2], true);
        QVERIFY(again && again->retransmission);
        QCOMPARE(owner_text(*again),
                 std::string("WR 7 · ibv_post_send RDMA_WRITE 8192 B · packet 3 of 8 · retransmitted"));

        // On B the requests are the peer's, and so is the ACK B sends.
        PacketMatcher b = connectedMatcher(qpB, qpA, 1024, 4242);
        const auto in = b.attribute(packets[0], /*outgoing=*/false);
        QVERIFY(in && in->peers && !in->request);
        QCOMPARE(in->role, PacketRole::Request);
        const auto ack = b.attribute(packets[8], /*outgoing=*/true);
        QVERIFY(ack && ack->peers);
        QCOMPARE(ack->role, PacketRole::Ack);
        QVERIFY(!b.attribute(packets[0], /*outgoing=*/true)); // no QP of B sends to B's own QP
    }

    void aReadsResponsesBelongToTheRead() {
        const auto packets = connectionPackets("read");
        const std::uint32_t qpA = packets[1].dest_qp, qpB = packets[0].dest_qp;
        PacketMatcher a = connectedMatcher(qpA, qpB, 1024, packets[0].psn);
        postSend(a, qpA, 9, "RDMA_READ", 8192);
        const auto request = a.attribute(packets[0], true);
        QVERIFY(request && request->request);
        QCOMPARE(request->role, PacketRole::Request);
        QCOMPARE(request->index, 1U);
        QCOMPARE(request->count, 1U);
        for (std::size_t i = 1; i < 9; ++i) {
            const auto owner = a.attribute(packets[i], false);
            QVERIFY(owner && owner->request);
            QCOMPARE(owner->role, PacketRole::Response);
            QCOMPARE(owner->request->wr_id, std::uint64_t{9});
            QCOMPARE(owner->index, static_cast<std::uint32_t>(i));
            QCOMPARE(owner->count, 8U);
        }
    }

    void psnsFollowTheIbtaAndWrapAt24Bits() {
        QCOMPARE(psns_of("RDMA_WRITE", 0, 1024), 1U);
        QCOMPARE(psns_of("SEND", 1025, 1024), 2U);
        QCOMPARE(psns_of("RDMA_READ", 8192, 4096), 2U);
        QCOMPARE(psns_of("ATOMIC_FETCH_AND_ADD", 8, 256), 1U);
        QCOMPARE(psns_of("LOCAL_INV", 0, 1024), 0U);
        PacketMatcher m = connectedMatcher(3, 4, 1024, 0xFFFFFE);
        postSend(m, 3, 1, "LOCAL_INV", 0); // sends nothing, takes no PSN
        postSend(m, 3, 2, "RDMA_WRITE", 4096);
        RocePacket p;
        p.roce = true;
        p.opcode = 0x08; // RC RDMA WRITE Last
        p.dest_qp = 4;
        p.psn = 1; // 0xFFFFFE, 0xFFFFFF, 0, 1
        const auto owner = m.attribute(p, true);
        QVERIFY(owner && owner->request);
        QCOMPARE(owner->request->wr_id, std::uint64_t{2});
        QCOMPARE(owner->index, 4U);
        // Go-back-N after a loss the capture never saw (a qdisc dropped the first copy of PSN 1): the
        // resent PSNs 1 and 2 are retransmissions although 1 shows up here for the first time.
        PacketMatcher lossy = connectedMatcher(3, 4, 1024, 0);
        postSend(lossy, 3, 8, "RDMA_WRITE", 4096);
        p.opcode = 0x07; // RC RDMA WRITE Middle
        std::vector<bool> resent;
        for (const std::uint32_t psn : {0U, 2U, 1U, 2U, 3U}) {
            p.psn = psn;
            resent.push_back(lossy.attribute(p, true)->retransmission);
        }
        QCOMPARE(resent, (std::vector<bool>{false, false, true, true, false}));
        QCOMPARE(role_of(0x11, 0x62), PacketRole::Nak); // NAK: remote access error
        QCOMPARE(role_of(0x11, 0x2e), PacketRole::Nak); // RNR NAK
        QCOMPARE(role_of(0x11, 0x1f), PacketRole::Ack);
        QCOMPARE(role_of(0x81, std::nullopt), PacketRole::Other);   // CNP
        QCOMPARE(role_of(0x64, std::nullopt), PacketRole::Request); // UD SEND Only
    }
};

QTEST_GUILESS_MAIN(RoceTest)
#include "tst_roce.moc"
