// Lessons: the app's lessons are the labs send, write and read (labs/09-send-recv, 10-rdma-write,
// 12-rdma-read, app/model/lessons.h), run as labs. Each has a text for every step of the engine's loopback
// operation, under the engine's step id, and performs in each step what LoopbackOperation does there, so
// a recording of `rdmalab-cli op` replays with its texts; the texts follow the device rules and use only the
// value paths such a recording states (labs::recorded_values).
#include "rdmalab/labs/lab.hpp"
#include "testutil.hpp"

#include <QRegularExpression>
#include <QtTest>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace rdmalab::labs;

namespace {

// The engine's steps for each operation on a loopback pair, in order (engine/src/operation.cpp).
const std::map<std::string, std::vector<std::string>> kEngineSteps = {
    {"send",
     {"open_device", "alloc_pd_A",  "alloc_pd_B",  "reg_mr_A",  "reg_mr_B",  "create_cq_A", "create_cq_B",
      "create_qp_A", "create_qp_B", "init_A",      "init_B",    "rtr_A",     "rtr_B",       "rts_A",
      "rts_B",       "post_recv_B", "post_send_A", "poll_cq_A", "poll_cq_B", "verify"}},
    {"write",
     {"open_device", "alloc_pd_A", "alloc_pd_B", "reg_mr_A", "reg_mr_B", "create_cq_A", "create_cq_B",
      "create_qp_A", "create_qp_B", "init_A", "init_B", "rtr_A", "rtr_B", "rts_A", "rts_B", "post_send_A",
      "poll_cq_A", "verify"}},
    {"read",
     {"open_device", "alloc_pd_A", "alloc_pd_B", "reg_mr_A", "reg_mr_B", "create_cq_A", "create_cq_B",
      "create_qp_A", "create_qp_B", "init_A", "init_B", "rtr_A", "rtr_B", "rts_A", "rts_B", "post_send_A",
      "poll_cq_A", "verify"}},
};

const std::map<std::string, std::string> kLabFiles = {{"send", "09-send-recv/send.yaml"},
                                                      {"write", "10-rdma-write/write.yaml"},
                                                      {"read", "12-rdma-read/read.yaml"}};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// A shipped lesson's lab and the engine opcode its post_send_A step names.
struct ShippedLesson {
    Lab lab;
    std::string op;
    const std::string& id() const { return lab.id; }
    const Step* step(std::string_view id) const { return lab.step(id); }
};

/// The shipped labs that are lessons, in the app's order. An error in one of the three lesson files fails
/// the test (other labs are checked by tst_labformat).
std::vector<ShippedLesson> shippedLessons() {
    std::vector<LabError> errors;
    const auto labs = load_labs(RDMALAB_LABS_DIR.toStdString(), errors);
    for (const auto& e : errors)
        for (const auto& [id, file] : kLabFiles)
            if (contains(e.file, file)) {
                qWarning("%s", e.to_string().c_str());
                return {};
            }
    std::vector<ShippedLesson> out;
    for (const std::string id : {"send", "write", "read"})
        for (const auto& lab : labs)
            if (lab.id == id) {
                std::string op;
                if (const Step* post = lab.step("post_send_A"))
                    if (const auto opcode = post->args.find("opcode"); opcode != post->args.end())
                        op = opcode->second.text;
                out.push_back({lab, op});
            }
    return out;
}

const ShippedLesson* findLesson(const std::vector<ShippedLesson>& lessons, const std::string& id) {
    for (const auto& l : lessons)
        if (l.id() == id) return &l;
    return nullptr;
}

/// The placeholders of a text ("... {A.qp.qpn} ..." -> "A.qp.qpn").
std::set<std::string> placeholdersOf(const std::string& text) {
    std::set<std::string> out;
    static const QRegularExpression re(QStringLiteral("\\{([^{}]+)\\}"));
    auto it = re.globalMatch(QString::fromStdString(text));
    while (it.hasNext())
        out.insert(it.next().captured(1).toStdString());
    return out;
}

/// A scalar field of a step as written: names and text as they are, integers in decimal, flags joined with
/// '|'; a list of maps or a map gives the `mr` of its (first) entry. Empty when the step has no such field.
std::string field(const Step& step, const std::string& key) {
    const auto it = step.args.find(key);
    if (it == step.args.end()) return {};
    const Value& v = it->second;
    switch (v.kind) {
    case Value::Kind::integer:
        return std::to_string(v.integer);
    case Value::Kind::boolean:
        return v.boolean ? "true" : "false";
    case Value::Kind::list: {
        std::string out;
        for (const auto& item : v.list) {
            const Value* mr = item.find("mr");
            out += (out.empty() ? "" : "|") + (mr ? mr->text : item.text);
        }
        return out;
    }
    case Value::Kind::map: {
        const Value* mr = v.find("mr");
        return mr ? mr->text : std::string();
    }
    default:
        return v.text;
    }
}

} // namespace

class LessonsTest : public QObject {
    Q_OBJECT
  private slots:
    void shippedLessonsLoadInOrder() {
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        const std::vector<std::pair<std::string, int>> expected = {{"send", 9}, {"write", 10}, {"read", 12}};
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const Lab& lab = lessons[i].lab;
            QCOMPARE(lessons[i].id(), expected[i].first);
            QCOMPARE(lab.chapter, expected[i].second);
            QCOMPARE(lessons[i].op, expected[i].first);
            QVERIFY(lab.parameter("size") && lab.parameter("message")); // the toolbar's size and message
            QCOMPARE(lab.parameter("size")->default_value.integer, std::int64_t(64));
            QCOMPARE(lab.parameter("message")->default_value.text, std::string("Hello, RDMA!"));
            QVERIFY(!lab.title.en.empty() && !lab.title.zh.empty());
            QVERIFY(!lab.objectives.empty());
            for (const auto& objective : lab.objectives)
                QVERIFY(!objective.en.empty() && !objective.zh.empty());
            QVERIFY(missing_translations(lab).empty());
            const auto& summary = lab.summary;
            for (auto device : {DeviceClass::unknown, DeviceClass::software, DeviceClass::hardware}) {
                QVERIFY(!summary.get(device, "en").empty());
                QVERIFY(summary.get(device, "zh") != summary.get(device, "en"));
            }
            QVERIFY(!lab.references.empty());
            QVERIFY(contains(lab.file, kLabFiles.at(lessons[i].id())));
        }
    }

    void shippedLessonsCoverEveryEngineStep() {
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        for (const auto& [id, steps] : kEngineSteps) {
            const auto* it = findLesson(lessons, id);
            QVERIFY2(it != nullptr, id.c_str());
            for (const auto& step_id : steps) {
                const std::string what = id + ": " + step_id;
                const Step* step = it->step(step_id);
                QVERIFY2(step != nullptr, what.c_str());
                QVERIFY2(!step->title.en.empty() && !step->title.zh.empty(), what.c_str());
                // Every text exists in both languages for every device class (no English fallback shown to a
                // Chinese reader), and a variant is never a copy of another.
                for (auto device : {DeviceClass::unknown, DeviceClass::software, DeviceClass::hardware}) {
                    QVERIFY2(!step->text.get(device, "en").empty(), what.c_str());
                    QVERIFY2(step->text.get(device, "zh") != step->text.get(device, "en"), what.c_str());
                }
                for (const auto* part : {&step->text.common, &step->text.software, &step->text.hardware})
                    QVERIFY2(part->en.empty() == part->zh.empty(), what.c_str());
                if (step->text.varies())
                    QVERIFY2(step->text.software.en != step->text.hardware.en, what.c_str());
            }
            // No step the operation does not run (a typo in a step id would never be shown), in its order.
            for (const auto& step : it->lab.steps) {
                const std::string what = id + ": unexpected step " + step.id;
                QVERIFY2(std::find(steps.begin(), steps.end(), step.id) != steps.end(), what.c_str());
            }
            QCOMPARE(it->lab.steps.size(), steps.size());
        }
    }

    void everyStepPerformsWhatTheEngineDoes() {
        // engine/src/ops/operation.cpp (LoopbackOperation::plan) and op_common.hpp (requester_access,
        // responder_access): the same verbs on the same objects with the same arguments, step for step.
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        const std::map<std::string, std::string> responderAccess = {
            {"send", "local_write"}, {"write", "local_write|remote_write"}, {"read", "remote_read"}};
        for (const auto& lesson : lessons) {
            const std::string op = lesson.op;
            for (const auto& step : lesson.lab.steps) {
                const std::string what = op + ": " + step.id + " " + step.action;
                const std::string e(1, step.id.back());        // the endpoint of a per-side step
                const std::string peer = e == "A" ? "B" : "A"; // and the other one
                auto is = [&](const std::string& key, const std::string& want) {
                    const std::string have = field(step, key);
                    const std::string message = what + ": " + key + " is '" + have + "', not '" + want + "'";
                    QVERIFY2(have == want, message.c_str());
                };
                if (step.id == "open_device") {
                    QCOMPARE(step.action, std::string("open_device"));
                } else if (step.id.starts_with("alloc_pd_")) {
                    QCOMPARE(step.action, std::string("alloc_pd"));
                    QCOMPARE(step.creates(), e + ".pd");
                } else if (step.id.starts_with("reg_mr_")) {
                    QCOMPARE(step.action, std::string("reg_mr"));
                    QCOMPARE(step.creates(), e + ".buf");
                    is("pd", e + ".pd");
                    is("size", "{size}");
                    is("access", e == "A" ? "local_write" : responderAccess.at(op));
                    // The application fills the source: A's buffer for a send or write, B's for a read.
                    is("fill", (e == "A") != (op == "read") ? "{message}" : "");
                } else if (step.id.starts_with("create_cq_")) {
                    QCOMPARE(step.action, std::string("create_cq"));
                    QCOMPARE(step.creates(), e + ".cq");
                    is("depth", "16");
                } else if (step.id.starts_with("create_qp_")) {
                    QCOMPARE(step.action, std::string("create_qp"));
                    QCOMPARE(step.creates(), e + ".qp");
                    is("pd", e + ".pd");
                    is("type", "rc");
                    is("send_cq", e + ".cq");
                    is("recv_cq", e + ".cq");
                    is("psn", e == "A" ? "4096" : "8192"); // 0x1000 and 0x2000
                } else if (step.id.starts_with("init_")) {
                    QCOMPARE(step.action, std::string("to_init"));
                    is("qp", e + ".qp");
                    is("access", "remote_write|remote_read|remote_atomic");
                } else if (step.id.starts_with("rtr_")) {
                    QCOMPARE(step.action, std::string("to_rtr"));
                    is("qp", e + ".qp");
                    is("peer", peer + ".qp");
                    is("min_rnr_timer", "1");
                } else if (step.id.starts_with("rts_")) {
                    QCOMPARE(step.action, std::string("to_rts"));
                    is("qp", e + ".qp");
                    is("sq_psn", ""); // the QP's own psn, set at create_qp
                } else if (step.id == "post_recv_B") {
                    QCOMPARE(step.action, std::string("post_recv"));
                    is("qp", "B.qp");
                    is("sge", "B.buf");
                } else if (step.id == "post_send_A") {
                    QCOMPARE(step.action, std::string("post_send"));
                    is("qp", "A.qp");
                    is("opcode", op);
                    is("sge", "A.buf");
                    is("remote", op == "send" ? "" : "B.buf");
                } else if (step.id.starts_with("poll_cq_")) {
                    QCOMPARE(step.action, std::string("poll_cq"));
                    is("cq", e + ".cq");
                    // The completion the lesson teaches: its status and opcode, checked on the device.
                    QVERIFY2(std::any_of(step.expect.begin(), step.expect.end(),
                                         [](const Expectation& x) { return x.kind == "completion"; }),
                             what.c_str());
                } else if (step.id == "verify") {
                    QCOMPARE(step.action, std::string("note"));
                    // The bytes moved: the destination equals the source.
                    const std::string destination = op == "read" ? "A.buf" : "B.buf";
                    const bool bytesChecked =
                        std::any_of(step.expect.begin(), step.expect.end(), [&](const Expectation& x) {
                            const Value* mr = x.value.find("mr");
                            return x.kind == "bytes" && mr && mr->text == destination &&
                                   x.value.find("same_as");
                        });
                    QVERIFY2(bytesChecked, what.c_str());
                } else {
                    QFAIL(what.c_str());
                }
            }
        }
    }

    void textsUseOnlyTheValuesARecordingStates() {
        // labs::recorded_values, for a replay of a recording of the engine's loopback operation: the device,
        // both sides' buffers and QPs, the parameters and the running step's own results. Anything else
        // would be shown raw there.
        std::set<std::string> known = {"size", "message", "device.name", "device.mtu", "device.gid"};
        for (const std::string e : {"A", "B"}) {
            for (const std::string f : {"lkey", "rkey", "addr", "access"})
                known.insert(e + ".buf." + f);
            for (const std::string f : {"qpn", "psn", "access"})
                known.insert(e + ".qp." + f);
        }
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        for (const auto& lesson : lessons) {
            std::vector<std::pair<std::string, const DeviceText*>> texts = {{"", &lesson.lab.summary}};
            for (const auto& step : lesson.lab.steps)
                texts.emplace_back(step.id, &step.text);
            for (const auto& [id, text] : texts)
                for (const auto* part : {&text->common, &text->software, &text->hardware})
                    for (const auto* language : {&part->en, &part->zh})
                        for (const auto& name : placeholdersOf(*language)) {
                            const bool own =
                                !id.empty() && (name == id + ".syscalls" || name == id + ".status" ||
                                                name == id + ".byte_len");
                            const std::string what = lesson.id() + " " + id + ": {" + name + "}";
                            QVERIFY2(known.count(name) || own, what.c_str());
                        }
        }
    }

    void chineseTextsHaveNoStraySpaces() {
        // A folded YAML block (">-") joins lines with a space, which is wrong between two Chinese characters.
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        const QRegularExpression stray(
            QStringLiteral("[\\x{3000}-\\x{303f}\\x{4e00}-\\x{9fff}\\x{ff00}-\\x{ffef}] +"
                           "[\\x{3000}-\\x{303f}\\x{4e00}-\\x{9fff}\\x{ff00}-\\x{ffef}]"));
        for (const auto& lesson : lessons) {
            const Lab& lab = lesson.lab;
            std::vector<std::pair<std::string, std::string>> texts = {{"title", lab.title.zh}};
            for (std::size_t i = 0; i < lab.objectives.size(); ++i)
                texts.emplace_back("objectives[" + std::to_string(i) + "]", lab.objectives[i].zh);
            for (const auto& parameter : lab.parameters)
                texts.emplace_back("parameter " + parameter.name, parameter.text.zh);
            auto add = [&](const std::string& where, const DeviceText& text) {
                texts.emplace_back(where, text.common.zh);
                texts.emplace_back(where + ".software", text.software.zh);
                texts.emplace_back(where + ".hardware", text.hardware.zh);
            };
            add("summary", lab.summary);
            for (const auto& step : lab.steps) {
                texts.emplace_back(step.id + ".title", step.title.zh);
                add(step.id + ".text", step.text);
                for (const auto& expectation : step.expect)
                    texts.emplace_back(step.id + ".expect." + expectation.kind + ".why", expectation.why.zh);
            }
            for (const auto& [where, text] : texts) {
                const auto match = stray.match(QString::fromStdString(text));
                const std::string what =
                    lesson.id() + " " + where + ": '" + match.captured().toStdString() + "'";
                QVERIFY2(!match.hasMatch(), what.c_str());
            }
        }
    }

    void stepsThatDependOnTheDeviceHaveBothVariants() {
        // A text that speaks of DMA, doorbells, system calls, kernel bypass or what a CPU does tells a
        // different story on SoftRoCE (the kernel's rxe driver does the NIC's work on a CPU, copying every
        // byte, and the send doorbell is a system call) than on an RDMA NIC: such a text must have both.
        // Whole words only: "RDMA" and "rdma_cm" do not speak of DMA.
        const QRegularExpression keywords(QStringLiteral(
            "(?<![A-Za-z_])(DMA|CPU)(?![A-Za-z_])|(?i:doorbell|system call|syscall|kernel bypass|"
            "bypass)|门铃|系统调用|绕过内核|内核旁路|\\.syscalls\\}"));
        QVERIFY(keywords.isValid());
        QVERIFY(!keywords.match("RDMA over rdma_cm").hasMatch());
        QVERIFY(keywords.match("the NIC reads it by DMA.").hasMatch());
        auto mentions = [&](const LocalizedText& text) -> std::string {
            for (const auto* part : {&text.en, &text.zh}) {
                const auto match = keywords.match(QString::fromStdString(*part));
                if (match.hasMatch()) return match.captured().toStdString();
            }
            return {};
        };
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        int varying = 0;
        for (const auto& lesson : lessons) {
            std::vector<std::pair<std::string, const DeviceText*>> texts = {{"summary", &lesson.lab.summary}};
            for (const auto& step : lesson.lab.steps)
                texts.emplace_back(step.id, &step.text);
            for (const auto& [where, text] : texts) {
                const std::string word = mentions(text->common);
                const std::string what = lesson.id() + " " + where + ": mentions '" + word +
                                         "' but lacks a software or a hardware variant";
                if (!word.empty())
                    QVERIFY2(!text->software.en.empty() && !text->hardware.en.empty(), what.c_str());
                if (text->varies()) {
                    ++varying;
                    const std::string both = lesson.id() + " " + where + ": has only one variant";
                    QVERIFY2(!text->software.en.empty() && !text->hardware.en.empty(), both.c_str());
                }
            }
            // The software variant of the post and poll steps quotes the engine's count of system calls.
            for (const std::string id : {"post_send_A", "poll_cq_A"}) {
                const std::string path = "{" + id + ".syscalls}";
                const std::string what = lesson.id() + " " + id + ": the SoftRoCE text does not use " + path;
                const Step* step = lesson.step(id);
                QVERIFY2(step && contains(step->text.software.en, path) &&
                             contains(step->text.software.zh, path),
                         what.c_str());
            }
        }
        QVERIFY(varying >= 3 * 5); // the summaries and the data-path steps of every lesson, at least
    }

    void queuePairTextsAreTrueOnBothDevicesAndUnderTheFaults() {
        // docs/claims.md Q9, Q10, Q16, Q17, Q18, S4, C3: facts the QP steps state in their common text, which
        // must hold on SoftRoCE and on a NIC, and for the run with the no-recv fault as well.
        const auto lessons = shippedLessons();
        QCOMPARE(lessons.size(), kLabFiles.size());
        int checked = 0;
        for (const auto& lesson : lessons) {
            if (!kEngineSteps.count(lesson.id())) continue;
            ++checked;
            const Step* rts = lesson.step("rts_A");
            QVERIFY(rts && !rts->text.varies());
            const std::string& en = rts->text.common.en;
            const std::string& zh = rts->text.common.zh;
            const std::string what = lesson.id() + " rts_A: " + en;
            // retry_cnt 7: an ordinary count in the IBTA, "retry forever" in rxe (rxe_comp.c rxe_completer).
            QVERIFY2(contains(en, "in the InfiniBand specification 7 is a count like any other"),
                     what.c_str());
            QVERIFY2(contains(en, "SoftRoCE treats retry_cnt 7 as unlimited"), what.c_str());
            QVERIFY2(contains(zh, "在 InfiniBand 规范中，7 和其他取值一样只是一个次数"), zh.c_str());
            QVERIFY2(contains(zh, "SoftRoCE 把 retry_cnt 为 7 当作无限次"), zh.c_str());
            // Sends are accepted in SQE only by UC/UD QPs: an RC QP never enters SQE.
            QVERIFY2(contains(en, "only UC and UD QPs enter it"), what.c_str());
            QVERIFY2(!contains(en, "in SQE and ERR"), what.c_str());
            QVERIFY2(contains(zh, "只有 UC 和 UD 类型的 QP 会进入 SQE"), zh.c_str());
            QVERIFY2(!contains(zh, "在 SQE 和 ERR 状态下"), zh.c_str());
            if (lesson.op == "send") {
                // The no-recv fault runs this step with rnr_retry 0: the text must not say 7 without saying
                // so.
                QVERIFY2(!contains(en, "rnr_retry 7"), what.c_str());
                QVERIFY2(contains(en, "0 under the no-recv fault"), what.c_str());
                QVERIFY2(!contains(zh, "rnr_retry 为 7"), zh.c_str());
                QVERIFY2(contains(zh, "no-recv 故障则把它设为 0"), zh.c_str());
            } else {
                // The fault is refused for one-sided operations (engine/src/ops/kinds.cpp).
                QVERIFY2(!contains(en, "no-recv") && !contains(zh, "no-recv"), what.c_str());
            }
            // The RNR timer: 0.01 ms on paper, at least one jiffy on rxe (rxe_comp.c rnrnak_jiffies).
            const Step* rtr = lesson.step("rtr_A");
            QVERIFY(rtr);
            QVERIFY2(contains(rtr->text.common.en, "a SoftRoCE sender waits at least one kernel tick"),
                     rtr->text.common.en.c_str());
            QVERIFY2(contains(rtr->text.common.zh, "SoftRoCE 作为发送方至少要等待一个内核时钟节拍"),
                     rtr->text.common.zh.c_str());
            // Which requests complete: receives, signaled sends and every failed request; capacities are
            // minima.
            const Step* cq = lesson.step("create_cq_A");
            QVERIFY(cq);
            QVERIFY2(contains(cq->text.common.en, "or any request fails, signaled or not"),
                     cq->text.common.en.c_str());
            QVERIFY2(contains(cq->text.common.en, "room for at least 16 entries"),
                     cq->text.common.en.c_str());
            QVERIFY2(contains(cq->text.common.zh, "或者任何请求失败时（无论是否带信号）"),
                     cq->text.common.zh.c_str());
        }
        QCOMPARE(checked, 3);
    }

    void variantsReplaceTheCommonTextOnTheirDevice() {
        // A software variant only: hardware keeps the common text.
        DeviceText text;
        text.common = {"Post it.", "提交。"};
        text.software = {"By system call.", "系统调用。"};
        QVERIFY(text.varies());
        QCOMPARE(text.get(DeviceClass::software, "en"), std::string("By system call."));
        QCOMPARE(text.get(DeviceClass::software, "zh"), std::string("系统调用。"));
        QCOMPARE(text.get(DeviceClass::hardware, "en"), std::string("Post it."));
        QCOMPARE(text.get(DeviceClass::hardware, "zh"), std::string("提交。"));
        QCOMPARE(text.get(DeviceClass::unknown, "zh"), std::string("提交。"));
        QVERIFY(text.variant(DeviceClass::hardware) == nullptr);
        QVERIFY(text.variant(DeviceClass::unknown) == nullptr);
        QCOMPARE(text.variant(DeviceClass::software)->en, std::string("By system call."));

        // Both variants and no common text: an unknown device shows both under headings, and a variant
        // without Chinese falls back to its own English, never to the other device's text.
        DeviceText both;
        both.software = {"By system call.", "系统调用。"};
        both.hardware = {"By a register write.", ""};
        QCOMPARE(both.get(DeviceClass::hardware, "zh"), std::string("By a register write."));
        QCOMPARE(both.get(DeviceClass::software, "zh"), std::string("系统调用。"));
        QCOMPARE(both.get(DeviceClass::unknown, "en"),
                 std::string("On a software device (SoftRoCE):\nBy system call.\n\n"
                             "On a hardware RDMA NIC:\nBy a register write."));
        QVERIFY(contains(both.get(DeviceClass::unknown, "zh"), "在软件设备（SoftRoCE）上：\n系统调用。"));

        // No variant: the common text everywhere, and a missing Chinese falls back to English.
        DeviceText plain;
        plain.common = {"Open it.", ""};
        QVERIFY(!plain.varies());
        QCOMPARE(plain.get(DeviceClass::software, "zh"), std::string("Open it."));
        QVERIFY(plain.variant(DeviceClass::software) == nullptr);
        QCOMPARE(DeviceText{}.get(DeviceClass::unknown, "en"), std::string());
    }

    void renderReplacesKnownPlaceholders() {
        const std::map<std::string, std::string> values = {{"B.buf.rkey", "0x1234"}, {"size", "64"}};
        QCOMPARE(render("B's rkey {B.buf.rkey} covers {size} bytes", values),
                 std::string("B's rkey 0x1234 covers 64 bytes"));
        QCOMPARE(render("{A.qp.qpn} stays, {B.buf.rkey} goes", values),
                 std::string("{A.qp.qpn} stays, 0x1234 goes"));
        QCOMPARE(render("{ {} {B.buf.rkey", values), std::string("{ {} {B.buf.rkey"));
        QCOMPARE(render("", values), std::string());
        QCOMPARE(render("{size}{size}", values), std::string("6464"));
    }
};

QTEST_GUILESS_MAIN(LessonsTest)
#include "tst_lessons.moc"
