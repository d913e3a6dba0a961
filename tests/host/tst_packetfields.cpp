// The decoded-packet field tree (rdmalab/format/packet_fields.hpp): the header tables are consistent, and
// real header bytes decode to the values, offsets, masks and texts a details tree and a bytes pane need.
#include "rdmalab/format/packet_fields.hpp"

#include <QtTest>

#include <array>
#include <set>
#include <string>

using namespace rdmalab::packet;

class PacketFieldsTest : public QObject {
    Q_OBJECT
  private slots:
    void everyTableRowLiesInsideItsHeader() {
        std::set<std::string> abbrevs;
        for (const HeaderSpec* header : transport_headers()) {
            const std::string prefix = std::string(header->abbrev) + ".";
            QVERIFY(!header->fields.empty());
            for (const auto& f : header->fields) {
                const QString where = QString::fromUtf8(f.abbrev.data(), static_cast<int>(f.abbrev.size()));
                QVERIFY2(f.abbrev.starts_with(prefix), qPrintable(where));
                QVERIFY2(abbrevs.insert(std::string(f.abbrev)).second, qPrintable(where + " twice"));
                QVERIFY2(f.length >= 1 && f.length <= 8, qPrintable(where));
                QVERIFY2(f.offset + f.length <= header->length, qPrintable(where + " ends past its header"));
                if (f.mask != 0 && f.length < 8)
                    QVERIFY2(f.mask < (std::uint64_t{1} << (8 * f.length)),
                             qPrintable(where + ": mask too wide"));
            }
        }
    }

    void anRdmaWriteFirstDecodesItsBthAndReth() {
        // RC RDMA WRITE First to QP 0x11, PSN 5, then RETH: address, rkey, 8 KiB (the first packet of an
        // 8 KiB write at path MTU 1024).
        const std::array<std::uint8_t, 28> bytes{
            0x06, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x05, // BTH
            0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x1a, 0x2b, // RETH va, r_key
            0x00, 0x00, 0x20, 0x00};                                                // RETH dmalen
        std::string error;
        const auto bthTree = decode_header(bth(), bytes, 0, error);
        QVERIFY2(bthTree, error.c_str());
        QCOMPARE(bthTree->text, std::string("Base Transport Header, 12 bytes"));
        const auto* opcode = bthTree->find("infiniband.bth.opcode");
        QVERIFY(opcode);
        QCOMPARE(opcode->value, std::uint64_t{6});
        QCOMPARE(opcode->text, std::string("Opcode: 0x06 (RC RDMA WRITE First)"));
        const auto* psn = bthTree->find("infiniband.bth.psn");
        QVERIFY(psn);
        QCOMPARE(psn->value, std::uint64_t{5});
        QCOMPARE(psn->offset, std::size_t{9});
        QCOMPARE(psn->length, std::size_t{3});
        QCOMPARE(psn->text, std::string("Packet Sequence Number: 5"));
        const auto* qp = bthTree->find("infiniband.bth.destqp");
        QVERIFY(qp);
        QCOMPARE(qp->text, std::string("Destination Queue Pair: 0x000011"));
        QCOMPARE(bthTree->find("infiniband.bth.p_key")->value, std::uint64_t{0xffff});
        QCOMPARE(bthTree->find("infiniband.bth.a")->value, std::uint64_t{0});

        const auto rethTree = decode_header(reth(), bytes, 12, error);
        QVERIFY2(rethTree, error.c_str());
        QCOMPARE(rethTree->offset, std::size_t{12});
        QCOMPARE(rethTree->find("infiniband.reth.va")->value, std::uint64_t{0x7f1234567800});
        QCOMPARE(rethTree->find("infiniband.reth.r_key")->text, std::string("Remote Key: 0x00001a2b"));
        QCOMPARE(rethTree->find("infiniband.reth.r_key")->offset, std::size_t{20});
        QCOMPARE(rethTree->find("infiniband.reth.dmalen")->value, std::uint64_t{8192});
    }

    void bitFieldsTakeTheirMaskedBits() {
        // SE set, MigReq clear, pad count 3, header version 0; FECN clear, BECN set; AckReq set.
        const std::array<std::uint8_t, 12> bytes{0x04, 0xb0, 0x00, 0x00, 0x40, 0x00,
                                                 0x00, 0x02, 0x80, 0xff, 0xff, 0xff};
        std::string error;
        const auto tree = decode_header(bth(), bytes, 0, error);
        QVERIFY2(tree, error.c_str());
        QCOMPARE(tree->find("infiniband.bth.se")->value, std::uint64_t{1});
        QCOMPARE(tree->find("infiniband.bth.se")->mask, std::uint64_t{0x80});
        QCOMPARE(tree->find("infiniband.bth.m")->value, std::uint64_t{0});
        QCOMPARE(tree->find("infiniband.bth.padcnt")->value, std::uint64_t{3});
        QCOMPARE(tree->find("infiniband.bth.fecn")->value, std::uint64_t{0});
        QCOMPARE(tree->find("infiniband.bth.becn")->value, std::uint64_t{1});
        QCOMPARE(tree->find("infiniband.bth.a")->value, std::uint64_t{1});
        QCOMPARE(tree->find("infiniband.bth.psn")->value, std::uint64_t{0xffffff});
        QCOMPARE(tree->find("infiniband.bth.opcode")->text, std::string("Opcode: 0x04 (RC SEND Only)"));
    }

    void theAethSaysWhatTheResponderAnswered() {
        // A NAK with syndrome 0x62: a wrong rkey (remote access error), MSN 7.
        const std::array<std::uint8_t, 4> nak{0x62, 0x00, 0x00, 0x07};
        std::string error;
        const auto tree = decode_header(aeth(), nak, 0, error);
        QVERIFY2(tree, error.c_str());
        QCOMPARE(tree->find("infiniband.aeth.syndrome")->text,
                 std::string("Syndrome: 0x62 (NAK: remote access error)"));
        QCOMPARE(tree->find("infiniband.aeth.msn")->value, std::uint64_t{7});
        QCOMPARE(aeth_syndrome_meaning(0x1f), std::string("ACK (no credit count)"));
        QCOMPARE(aeth_syndrome_meaning(0x03), std::string("ACK (credit count code 3)"));
        QCOMPARE(aeth_syndrome_meaning(0x2e), std::string("RNR NAK (timer code 14: 1.28 ms)"));
        QCOMPARE(aeth_syndrome_meaning(0x40), std::string("reserved"));
        QCOMPARE(aeth_syndrome_meaning(0xa0), std::string("reserved")); // bit 7 is not part of a kind
        QCOMPARE(aeth_syndrome_meaning(0x60), std::string("NAK: PSN sequence error"));
    }

    void opcodesAreNamedByTransport() {
        QCOMPARE(opcode_name(0x0c), std::string("RC RDMA READ Request"));
        QCOMPARE(opcode_name(0x11), std::string("RC Acknowledge"));
        QCOMPARE(opcode_name(0x1d), std::string("RC ATOMIC WRITE"));
        QCOMPARE(opcode_name(0x2a), std::string("UC RDMA WRITE Only"));
        QCOMPARE(opcode_name(0x2c), std::string("reserved opcode 0x2c")); // UC has no READ
        QCOMPARE(opcode_name(0x64), std::string("UD SEND Only"));
        QCOMPARE(opcode_name(0x66), std::string("reserved opcode 0x66")); // UD has no WRITE
        QCOMPARE(opcode_name(0x81), std::string("CNP"));
        QCOMPARE(opcode_name(0x15), std::string("reserved opcode 0x15"));
    }

    void aShortPacketIsRefusedWithItsLengths() {
        const std::array<std::uint8_t, 10> bytes{};
        std::string error;
        QVERIFY(!decode_header(bth(), bytes, 0, error));
        QCOMPARE(error, std::string(
                            "Base Transport Header needs 12 bytes at offset 0, but the packet has 10 bytes"));
        QVERIFY(!decode_header(aeth(), bytes, 8, error));
        QVERIFY(!decode_header(aeth(), bytes, 11, error)); // past the end
    }

    void theTreeBecomesJson() {
        const std::array<std::uint8_t, 8> deth{0x11, 0x11, 0x11, 0x11, 0x00, 0x00, 0x00, 0x2a};
        std::string error;
        const auto tree = decode_header(rdmalab::packet::deth(), deth, 0, error);
        QVERIFY2(tree, error.c_str());
        const auto json = to_json(*tree);
        QCOMPARE(json["abbrev"].get<std::string>(), std::string("infiniband.deth"));
        QCOMPARE(json["children"].size(), std::size_t{2});
        QCOMPARE(json["children"][0]["text"].get<std::string>(), std::string("Queue Key: 0x11111111"));
        QCOMPARE(json["children"][1]["value"].get<std::uint64_t>(), std::uint64_t{0x2a});
        QVERIFY(!json["children"][1].contains("mask"));
    }
};

QTEST_APPLESS_MAIN(PacketFieldsTest)
#include "tst_packetfields.moc"
