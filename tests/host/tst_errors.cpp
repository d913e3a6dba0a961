// Error explanations: every failure names the verb, the code and meaning, the cause and the fix.
#include "testutil.hpp"

#include "rdmalab/engine/errors.hpp"
#include "rdmalab/engine/names.hpp"
#include "rdmalab/engine/verbs.hpp"

#include <QtTest>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include <sys/resource.h>

using namespace rdmalab;

namespace {
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Every explanation the engine's explain_* functions write: each errno, verb-specific EBUSY, each kind of
/// ibv_reg_mr failure, the device and port failures, each ibv_modify_qp failure, every completion status.
std::vector<ErrorInfo> everyExplanation() {
    std::vector<ErrorInfo> all;
    for (int err : {EPERM,   ENOENT,    EINTR,        EIO,          ENXIO,           EBADF,       EAGAIN,
                    ENOMEM,  EACCES,    EFAULT,       EBUSY,        EEXIST,          ENODEV,      EINVAL,
                    ENOSPC,  ENOSYS,    EOPNOTSUPP,   EADDRINUSE,   EADDRNOTAVAIL,   ENETUNREACH, ECONNRESET,
                    ENOBUFS, ETIMEDOUT, ECONNREFUSED, EHOSTUNREACH, EPROTONOSUPPORT, EAFNOSUPPORT}) {
        all.push_back(explain_errno("ibv_create_qp", err));
        all.push_back(explain_errno("ibv_modify_qp", err, "RC QP INIT->RTR"));
    }
    for (const char* verb : {"ibv_dealloc_pd", "ibv_destroy_cq", "ibv_destroy_comp_channel"})
        all.push_back(explain_errno(verb, EBUSY));
    all.push_back(explain_reg_mr_error(EINVAL, 4096, IBV_ACCESS_REMOTE_WRITE));
    all.push_back(explain_reg_mr_error(ENOMEM, 1 << 20, IBV_ACCESS_LOCAL_WRITE));
    all.push_back(explain_reg_mr_error(EINVAL, 4096, IBV_ACCESS_ON_DEMAND));
    all.push_back(explain_reg_mr_error(EFAULT, 4096, IBV_ACCESS_LOCAL_WRITE));
    all.push_back(explain_reg_mr_error(EFAULT, 4096, 0));
    all.push_back(explain_reg_mr_error(EINVAL, 4096, IBV_ACCESS_LOCAL_WRITE));
    all.push_back(explain_reg_mr_error(ENODEV, 4096, 0));
    if (auto shortfall = explain_memory_shortfall(1ULL << 60, "A's and B's buffers", "A 和 B 的缓冲区"))
        all.push_back(*shortfall);
    all.push_back(explain_no_device());
    all.push_back(explain_device_not_found("mlx5_9", {"rxe0", "rxe1"}));
    all.push_back(explain_port_not_active("rxe0", 1, IBV_PORT_DOWN));
    all.push_back(explain_no_rocev2_gid("rxe0", 1));
    all.push_back(explain_modify_qp_error(EINVAL, IBV_QPT_RC, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QP_STATE,
                                          IBV_QP_STATE | IBV_QP_AV, 0));
    all.push_back(explain_modify_qp_error(EINVAL, IBV_QPT_RC, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QP_STATE,
                                          IBV_QP_STATE, 0));
    all.push_back(explain_modify_qp_error(ENOMEM, IBV_QPT_RC, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QP_STATE,
                                          IBV_QP_STATE, 0));
    for (int status = IBV_WC_SUCCESS; status <= IBV_WC_TM_RNDV_INCOMPLETE; ++status)
        all.push_back(explain_wc_status(static_cast<ibv_wc_status>(status), "RDMA_WRITE"));
    return all;
}

/// Two English words side by side outside `code` spans ("the device"): prose left in a Chinese text.
/// Identifiers (IBV_ACCESS_LOCAL_WRITE, rnr_retry), names in capitals (QP, IBTA, SoftRoCE) and single
/// words pass.
std::string englishProse(const std::string& text) {
    std::string plain;
    bool code = false;
    for (char c : text) {
        if (c == '`')
            code = !code;
        else
            plain += code ? ' ' : c;
    }
    const auto isWord = [](const std::string& w) {
        if (w.size() < 2 || !std::isalpha(static_cast<unsigned char>(w[0]))) return false;
        return std::all_of(w.begin() + 1, w.end(),
                           [](char c) { return std::islower(static_cast<unsigned char>(c)); });
    };
    std::string previous;
    std::size_t i = 0;
    while (i < plain.size()) {
        std::size_t j = i;
        while (j < plain.size() && (std::isalnum(static_cast<unsigned char>(plain[j])) || plain[j] == '_'))
            ++j;
        if (j == i) {
            if (plain[i] != ' ') previous.clear();
            ++i;
            continue;
        }
        const std::string word = plain.substr(i, j - i);
        if (isWord(word) && isWord(previous) && i > 0 && plain[i - 1] == ' ') return previous + " " + word;
        previous = isWord(word) ? word : std::string();
        i = j;
    }
    return {};
}

bool hasChinese(const std::string& text) {
    // UTF-8 of U+4E00..U+9FFF (CJK unified ideographs) starts with a byte in 0xE4..0xE9.
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b >= 0xE4 && b <= 0xE9;
    });
}
} // namespace

class ErrorsTest : public QObject {
    Q_OBJECT
  private slots:
    void moreMemoryThanTheMachineHasIsRefusedWithTheFigure() {
        const auto refused = explain_memory_shortfall(1ULL << 60, "A's and B's buffers");
        QVERIFY(refused.has_value());
        QCOMPARE(refused->code, std::string("ENOMEM"));
        QCOMPARE(refused->err, ENOMEM);
        QVERIFY2(refused->cause.find("MemAvailable") != std::string::npos &&
                     refused->cause.find("A's and B's buffers") != std::string::npos &&
                     refused->cause.find("Nothing was allocated") != std::string::npos,
                 refused->cause.c_str());
        QVERIFY(refused->fix.find("smaller size") != std::string::npos);
        QVERIFY(!explain_memory_shortfall(4096, "a page").has_value());
    }

    void theAddressSpaceLimitIsNamed() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("AddressSanitizer and ThreadSanitizer map terabytes of shadow memory: an address-space limit "
              "cannot be set under them");
#else
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_AS, &old), 0);
        rlimit low = old;
        low.rlim_cur = 2ULL << 30; // the test process maps far less than 2 GiB
        QCOMPARE(setrlimit(RLIMIT_AS, &low), 0);
        const auto refused = explain_memory_shortfall(3ULL << 30, "a buffer");
        const auto fits = explain_memory_shortfall(1ULL << 20, "a buffer");
        setrlimit(RLIMIT_AS, &old);
        QVERIFY(refused.has_value());
        QVERIFY2(refused->cause.find("ulimit -v") != std::string::npos, refused->cause.c_str());
        QVERIFY(refused->fix.find("ulimit -v unlimited") != std::string::npos);
        QVERIFY(!fits.has_value());
#endif
    }

    void regMrEnomemExplainsMemlockWithNumbers() {
        rlimit old{};
        getrlimit(RLIMIT_MEMLOCK, &old);
        rlimit small = old;
        small.rlim_cur = 64 * 1024;
        if (old.rlim_max != RLIM_INFINITY && old.rlim_max < small.rlim_cur) small.rlim_cur = old.rlim_max;
        QCOMPARE(setrlimit(RLIMIT_MEMLOCK, &small), 0);
        const auto info = explain_reg_mr_error(ENOMEM, 1024 * 1024, IBV_ACCESS_LOCAL_WRITE);
        setrlimit(RLIMIT_MEMLOCK, &old);
        const auto text = info.to_string();
        QVERIFY2(contains(text, "ibv_reg_mr failed: ENOMEM"), text.c_str());
        QVERIFY2(contains(text, "RLIMIT_MEMLOCK"), text.c_str());
        QVERIFY2(contains(text, "64 KiB"), text.c_str());
        QVERIFY2(contains(text, "1024 KiB"), text.c_str());
        QVERIFY2(contains(text, "ulimit -l"), text.c_str());
    }

    void regMrRemoteWriteWithoutLocalWrite() {
        const auto info = explain_reg_mr_error(EINVAL, 4096, IBV_ACCESS_REMOTE_WRITE);
        QCOMPARE(info.code, std::string("EINVAL"));
        QVERIFY2(contains(info.cause, "REMOTE_WRITE"), info.cause.c_str());
        QVERIFY2(contains(info.fix, "IBV_ACCESS_LOCAL_WRITE"), info.fix.c_str());
    }

    void noDeviceNamesRdmaLinkAddWithRealInterfaces() {
        const auto info = explain_no_device();
        QVERIFY(contains(info.fix, "rdma link add"));
        QVERIFY(contains(info.fix, "type rxe netdev"));
        const auto ifaces = network_interfaces();
        QVERIFY(!ifaces.empty());
        QVERIFY2(contains(info.fix, "netdev " + ifaces.front()), info.fix.c_str());
    }

    void modifyQpNamesMissingMaskBits() {
        const auto masks = transition_masks(IBV_QPT_RC, IBV_QPS_INIT, IBV_QPS_RTR);
        const int given = IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                          IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER; // no AV
        const auto info = explain_modify_qp_error(EINVAL, IBV_QPT_RC, IBV_QPS_INIT, IBV_QPS_RTR, given,
                                                  masks.required | IBV_QP_STATE, masks.optional);
        QVERIFY2(contains(info.cause, "missing required AV"), info.cause.c_str());
        QVERIFY2(contains(info.cause, "RC QP INIT->RTR"), info.cause.c_str());
    }

    void transitionMasksFollowTheStateTable() {
        QCOMPARE(transition_masks(IBV_QPT_UD, IBV_QPS_RESET, IBV_QPS_INIT).required,
                 IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY);
        QCOMPARE(transition_masks(IBV_QPT_UC, IBV_QPS_INIT, IBV_QPS_RTR).required,
                 IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN);
        QCOMPARE(transition_masks(IBV_QPT_UD, IBV_QPS_INIT, IBV_QPS_RTR).required, 0);
        QCOMPARE(transition_masks(IBV_QPT_RC, IBV_QPS_RTR, IBV_QPS_RTS).required,
                 IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                     IBV_QP_MAX_QP_RD_ATOMIC);
        QCOMPARE(transition_masks(IBV_QPT_RC, IBV_QPS_RTS, IBV_QPS_ERR).required, 0);
    }

    void completionStatusesHaveMeaningCauseAndFix() {
        for (auto status : {IBV_WC_REM_ACCESS_ERR, IBV_WC_RNR_RETRY_EXC_ERR, IBV_WC_WR_FLUSH_ERR,
                            IBV_WC_RETRY_EXC_ERR, IBV_WC_LOC_PROT_ERR}) {
            const auto info = explain_wc_status(status, "RDMA_WRITE");
            QCOMPARE(info.code, std::string(wc_status_name(status)));
            QVERIFY(!info.meaning.empty());
            QVERIFY(!info.cause.empty());
            QVERIFY(!info.fix.empty());
            QVERIFY(contains(info.to_string(), "completion of RDMA_WRITE failed: " + info.code));
        }
        QVERIFY(contains(explain_wc_status(IBV_WC_RNR_RETRY_EXC_ERR, "SEND").fix, "ibv_post_recv"));
    }

    void completionStatusTextsStateTheFactsExactly() {
        // RNR: every message that consumes a receive, and n retries = n+1 RNR NAKs; 7 has no limit.
        const auto rnr = explain_wc_status(IBV_WC_RNR_RETRY_EXC_ERR, "SEND");
        for (const auto& text : {rnr.cause, std::string(wc_status_meaning(IBV_WC_RNR_RETRY_EXC_ERR))}) {
            QVERIFY2(contains(text, "SEND with immediate"), text.c_str());
            QVERIFY2(contains(text, "RDMA WRITE with immediate"), text.c_str());
            QVERIFY2(contains(text, "(n+1)th RNR NAK"), text.c_str());
            QVERIFY2(contains(text, "rnr_retry 7 retries without limit"), text.c_str());
        }
        // A flush covers what was outstanding when the QP entered ERR, not only later posts.
        const auto flush = explain_wc_status(IBV_WC_WR_FLUSH_ERR, "SEND");
        QVERIFY2(contains(flush.cause, "still outstanding"), flush.cause.c_str());
        QVERIFY2(contains(flush.cause, "posted afterwards"), flush.cause.c_str());
        QVERIFY(contains(std::string(wc_status_meaning(IBV_WC_WR_FLUSH_ERR)), "still outstanding"));
        // Issue 31: an outstanding request may have been carried out before its flush, and on Linux 6.12 the
        // request that failed is itself reported flushed, so "find the first failed completion" is not
        // enough.
        QVERIFY2(contains(flush.cause, "may already have been sent"), flush.cause.c_str());
        QVERIFY2(contains(flush.fix, "Linux 6.12") &&
                     contains(flush.fix, "Linux 6.1 reports it as LOC_QP_OP_ERR"),
                 flush.fix.c_str());
        QVERIFY(contains(std::string(wc_status_meaning(IBV_WC_WR_FLUSH_ERR)), "may have been carried out"));
        QVERIFY(!contains(flush.cause, "none of them was executed"));
        // Transport retries: timeouts and PSN-sequence NAKs use them up, not keys; 7 means 7 in the IBTA and
        // no limit on SoftRoCE. An invalid request is not a key failure either.
        const auto retry = explain_wc_status(IBV_WC_RETRY_EXC_ERR, "RDMA_WRITE");
        QVERIFY2(contains(retry.cause, "retry_cnt retransmissions"), retry.cause.c_str());
        QVERIFY2(contains(retry.cause, "NAK for a PSN sequence error"), retry.cause.c_str());
        QVERIFY2(contains(retry.cause, "REM_ACCESS_ERR, not this status"), retry.cause.c_str());
        QVERIFY2(contains(retry.fix, "SoftRoCE (rxe) treats 7 as retrying without limit"), retry.fix.c_str());
        QVERIFY(contains(std::string(wc_status_meaning(IBV_WC_RETRY_EXC_ERR)), "PSN sequence error"));
        const auto invalid = explain_wc_status(IBV_WC_REM_INV_REQ_ERR, "SEND");
        QVERIFY2(contains(invalid.cause, "not an rkey failure"), invalid.cause.c_str());
        // LOC_PROT_ERR on a READ is the requester's own buffer.
        const auto prot = explain_wc_status(IBV_WC_LOC_PROT_ERR, "RDMA_READ");
        QVERIFY2(contains(prot.cause, "requester's own buffer"), prot.cause.c_str());
        // The too-long SEND: what the IBTA names and what rxe 6.1 answers, the same in every text.
        for (const auto& text : {std::string(wc_status_meaning(IBV_WC_LOC_QP_OP_ERR)),
                                 std::string(wc_status_meaning(IBV_WC_REM_OP_ERR)),
                                 explain_wc_status(IBV_WC_LOC_QP_OP_ERR, "RECV").cause,
                                 explain_wc_status(IBV_WC_REM_OP_ERR, "SEND").cause})
            QVERIFY2(contains(text, "rxe, Linux 6.1") || contains(text, "rxe in Linux 6.1"), text.c_str());
        QVERIFY(contains(std::string(wc_status_meaning(IBV_WC_LOC_LEN_ERR)), "as LOC_QP_OP_ERR instead"));
        QVERIFY(contains(std::string(wc_status_meaning(IBV_WC_REM_INV_REQ_ERR)), "with REM_OP_ERR instead"));
        // Each status with a cause of its own: none falls back to the generic text.
        for (auto status : {IBV_WC_LOC_LEN_ERR, IBV_WC_LOC_QP_OP_ERR, IBV_WC_LOC_PROT_ERR,
                            IBV_WC_LOC_ACCESS_ERR, IBV_WC_REM_INV_REQ_ERR, IBV_WC_REM_OP_ERR})
            QVERIFY2(!contains(explain_wc_status(status, "SEND").cause, "what the specification says"),
                     wc_status_name(status).data());
    }

    void portNotActiveAndNoGidAreExplained() {
        const auto port = explain_port_not_active("rxe0", 1, IBV_PORT_DOWN);
        QCOMPARE(port.code, std::string("PORT_DOWN"));
        QVERIFY(contains(port.fix, "ip link set"));
        const auto gid = explain_no_rocev2_gid("rxe0", 1);
        QVERIFY(contains(gid.meaning, "RoCE v2"));
        // The MAC-derived default GID exists without an IP address; only the IP-based GIDs need one.
        QVERIFY2(contains(gid.cause, "with or without an IP address"), gid.cause.c_str());
        QVERIFY2(contains(gid.cause, "InfiniBand port"), gid.cause.c_str());
        QVERIFY(contains(gid.fix, "ip addr add"));
    }

    void namesCoverFlagsAndStates() {
        const auto flags = access_flag_names(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
        QCOMPARE(flags, (std::vector<std::string>{"LOCAL_WRITE", "REMOTE_READ"}));
        QCOMPARE(qp_state_name(IBV_QPS_RTS), std::string_view("RTS"));
        QCOMPARE(errno_name(ENOMEM), std::string("ENOMEM"));
        QCOMPARE(mtu_bytes(IBV_MTU_1024), 1024);
        const auto masks = qp_attr_mask_names(IBV_QP_STATE | IBV_QP_AV);
        QCOMPARE(masks, (std::vector<std::string>{"STATE", "AV"}));
    }

    void everyExplanationIsAlsoInChinese() {
        QVERIFY(!englishProse("the device").empty()); // the check can fail
        QVERIFY(
            englishProse("设备 `rdma link show` 与 IBV_ACCESS_LOCAL_WRITE、rnr_retry、IBTA vol. 1").empty());
        const auto all = everyExplanation();
        QVERIFY(all.size() > 90);
        for (const auto& info : all) {
            const std::string where = info.verb + " " + info.code;
            const std::pair<const std::string*, const std::string*> texts[] = {
                {&info.meaning, &info.zh.meaning}, {&info.cause, &info.zh.cause}, {&info.fix, &info.zh.fix}};
            for (const auto& [en, zh] : texts) {
                // A text that is notation only (an errno's cause that is just the call's "RC QP INIT->RTR")
                // stays as it is.
                if (en->empty() || (*zh == *en && englishProse(*en).empty())) continue;
                QVERIFY2(hasChinese(*zh), (where + ": no Chinese for \"" + *en + "\"").c_str());
                const std::string prose = englishProse(*zh);
                QVERIFY2(prose.empty(), (where + ": English \"" + prose + "\" in \"" + *zh + "\"").c_str());
            }
            const std::string zhText = info.to_string("zh");
            QVERIFY2(zhText.rfind(info.verb + " 失败：" + info.code, 0) == 0, zhText.c_str());
            QVERIFY2(contains(zhText, "\n  原因：") && contains(zhText, "\n  解决："), zhText.c_str());
            // The JSON a trace carries reads back whole, with its Chinese.
            const ErrorInfo back = ErrorInfo::from_json(info.to_json());
            QCOMPARE(back.to_string(), info.to_string());
            QCOMPARE(back.to_string("zh"), zhText);
            QCOMPARE(back.err, info.err);
        }
        // Facts kept: the RNR advice names ibv_post_recv and rnr_retry 7 in Chinese too.
        const auto rnr = explain_wc_status(IBV_WC_RNR_RETRY_EXC_ERR, "SEND");
        QVERIFY2(contains(rnr.zh.fix, "ibv_post_recv") && contains(rnr.zh.cause, "rnr_retry"),
                 rnr.zh.cause.c_str());
        // A call site that rewrites the cause after the explanation was written: its Chinese is stale, so the
        // new English cause is shown (in the Chinese frame), never the generic Chinese one.
        ErrorInfo rewritten = explain_errno("ibv_create_srq", EINVAL);
        rewritten.cause = "max_wr 5000 is above the device's max_srq_wr 1024.";
        const std::string shown = rewritten.to_string("zh");
        QVERIFY2(contains(shown, "原因：max_wr 5000 is above") && contains(shown, rewritten.zh.fix),
                 shown.c_str());
        QVERIFY2(!contains(shown, rewritten.zh.cause), shown.c_str());
        QCOMPARE(rewritten.to_json()["zh"]["cause"].get<std::string>(), std::string());
        QCOMPARE(errno_text_zh(12345),
                 errno_text(12345)); // an errno the engine does not explain: strerror's text
    }

    void gidTextRoundTrips() {
        ibv_gid gid{};
        QVERIFY(gid_from_string("::ffff:127.0.0.1", gid));
        QCOMPARE(gid_to_string(gid), std::string("::ffff:127.0.0.1"));
        QVERIFY(!gid_from_string("not-a-gid", gid));
    }
};

QTEST_GUILESS_MAIN(ErrorsTest)
#include "tst_errors.moc"
