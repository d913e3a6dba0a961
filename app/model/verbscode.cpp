#include "verbscode.h"

#include "rdmalab/format/fields.hpp"

#include <QStringList>

#include <arpa/inet.h>

namespace rdmalab::app {

namespace {

QString s(const Fields& f, std::string_view key, const QString& fallback = "?") {
    return f.has(key) ? QString::fromStdString(f.text(key)) : fallback;
}

QString hex(const Fields& f, std::string_view key) {
    const auto value = f.find<quint32>(key); // keys are 32-bit
    return value ? QStringLiteral("0x%1").arg(*value, 0, 16) : QStringLiteral("?");
}

QString flags(const Fields& f, std::string_view key, const QString& prefix) {
    QStringList out;
    for (const auto& name : f.texts(key))
        out << prefix + QString::fromStdString(name);
    return out.isEmpty() ? QStringLiteral("0") : out.join(" | ");
}

/// Text for inside a C comment: a "*/" in it would end the comment.
QString commentSafe(QString text) {
    return text.replace(QStringLiteral("*/"), QStringLiteral("* /"));
}

/// A GID's 16 bytes as a C initialiser list for `union ibv_gid`'s `raw`, from its text (an IPv6 address,
/// IPv4 in the IPv4-mapped form ::ffff:a.b.c.d); empty when the text is not one.
QString gidBytes(const QString& text) {
    unsigned char raw[16] = {};
    if (inet_pton(AF_INET6, text.toLatin1().constData(), raw) != 1) return {};
    QStringList bytes;
    for (const unsigned char b : raw)
        bytes << QStringLiteral("0x%1").arg(b, 2, 16, QLatin1Char('0'));
    return bytes.join(QStringLiteral(", "));
}

QString mtuEnum(int bytes) {
    return bytes > 0 ? QStringLiteral("IBV_MTU_%1").arg(bytes) : QStringLiteral("?");
}

QString qpAttrCode(const Fields& attrs) {
    QStringList lines;
    for (auto it = attrs.json().begin(); it != attrs.json().end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        if (key == "qp_state")
            lines << QStringLiteral("    .qp_state = IBV_QPS_%1,").arg(s(attrs, "qp_state"));
        else if (key == "qp_access_flags")
            lines << QStringLiteral("    .qp_access_flags = %1,")
                         .arg(flags(attrs, "qp_access_flags", "IBV_ACCESS_"));
        else if (key == "path_mtu")
            lines << QStringLiteral("    .path_mtu = %1,").arg(mtuEnum(attrs.get<int>("path_mtu", 0)));
        else if (key == "ah_attr" && it->is_object()) {
            const Fields ah = attrs.object("ah_attr");
            const QString dgidText = s(ah, "dgid");
            const QString bytes = gidBytes(dgidText);
            const QString dgid =
                bytes.isEmpty()
                    ? QStringLiteral("/* dgid: %1 (not an IPv6 address) */").arg(commentSafe(dgidText))
                    : QStringLiteral(".dgid.raw = { %1 }, /* %2 */").arg(bytes, commentSafe(dgidText));
            lines << QStringLiteral("    .ah_attr = { .is_global = %1, .port_num = %2,\n"
                                    "                 .grh = { %3\n"
                                    "                          .sgid_index = %4, .hop_limit = %5 } },")
                         .arg(s(ah, "is_global"), s(ah, "port_num"), dgid, s(ah, "sgid_index"),
                              s(ah, "hop_limit"));
        } else
            lines << QStringLiteral("    .%1 = %2,").arg(key, QString::fromStdString(to_text(*it)));
    }
    return lines.join('\n');
}

/// A verb's call (the Verb events): its declaration and arguments, and what it returned.
QString verbCallCode(const QString& name, const Fields& d, const Fields& ids, const Fields& args) {
    if (name == "ibv_get_device_list")
        return QStringLiteral("int num;\nstruct ibv_device **list = ibv_get_device_list(&num);  // num = %1")
            .arg(s(d, "ret"));
    if (name == "ibv_open_device")
        return QStringLiteral("struct ibv_context *ctx = ibv_open_device(dev);  // %1")
            .arg(s(args, "device"));
    if (name == "ibv_query_port")
        return QStringLiteral("struct ibv_port_attr port;\nibv_query_port(ctx, %1, &port);  // state %2, "
                              "active_mtu %3, link_layer %4")
            .arg(s(args, "port"), s(d, "state"), s(d, "active_mtu"), s(d, "link_layer"));
    if (name == "ibv_query_gid_ex")
        return QStringLiteral("struct ibv_gid_entry gid;\nibv_query_gid_ex(ctx, %1, %2, &gid, 0);  // %3, %4")
            .arg(s(args, "port"), s(args, "index"), s(d, "gid"), s(d, "type"));
    if (name == "ibv_alloc_pd") return QStringLiteral("struct ibv_pd *pd = ibv_alloc_pd(ctx);");
    if (name == "ibv_reg_mr")
        return QStringLiteral("struct ibv_mr *mr = ibv_reg_mr(pd, (void *)%1, %2,\n"
                              "                               %3);\n// mr->lkey = %4, mr->rkey = %5")
            .arg(s(args, "addr"), s(args, "length"), flags(args, "access", "IBV_ACCESS_"), hex(ids, "lkey"),
                 hex(ids, "rkey"));
    if (name == "ibv_create_cq")
        return QStringLiteral("struct ibv_cq *cq = ibv_create_cq(ctx, %1, NULL, NULL, 0);")
            .arg(s(args, "cqe"));
    if (name == "ibv_create_qp")
        return QStringLiteral(
                   "struct ibv_qp_init_attr init = {\n    .send_cq = cq, .recv_cq = cq, .qp_type = "
                   "IBV_QPT_%1,\n    .cap = { .max_send_wr = %2, .max_recv_wr = %3, .max_send_sge = "
                   "%4, .max_recv_sge = %5%6 },\n};\nstruct ibv_qp *qp = ibv_create_qp(pd, &init);  // "
                   "qp->qp_num = %7")
            .arg(s(args, "qp_type"), s(args, "max_send_wr"), s(args, "max_recv_wr"), s(args, "max_send_sge"),
                 s(args, "max_recv_sge"),
                 args.has("max_inline_data")
                     ? QStringLiteral(",\n             .max_inline_data = %1").arg(s(args, "max_inline_data"))
                     : QString(),
                 s(ids, "qpn"));
    if (name == "ibv_query_qp")
        return QStringLiteral(
                   "struct ibv_qp_attr attr;\nstruct ibv_qp_init_attr init;\nibv_query_qp(qp, &attr, "
                   "IBV_QP_STATE, &init);  // attr.qp_state = IBV_QPS_%1")
            .arg(s(d, "state"));
    if (name == "ibv_poll_cq")
        return QStringLiteral("struct ibv_wc wc[%1];\nint n = ibv_poll_cq(cq, %1, wc);  // n = %2 (after %3 "
                              "empty polls)")
            .arg(s(args, "num_entries"), s(d, "ret"), s(d, "empty_polls_before", "0"));
    if (name.startsWith("ibv_destroy_") || name == "ibv_dealloc_pd" || name == "ibv_dereg_mr" ||
        name == "ibv_close_device") {
        const QString arg = name == "ibv_dealloc_pd"     ? "pd"
                            : name == "ibv_dereg_mr"     ? "mr"
                            : name == "ibv_close_device" ? "ctx"
                            : name == "ibv_destroy_qp"   ? "qp"
                            : name == "ibv_destroy_cq"   ? "cq"
                                                         : "obj";
        return QStringLiteral("%1(%2);  // returns %3").arg(name, arg, s(d, "ret"));
    }
    return QStringLiteral("// %1(...) returned %2").arg(name, s(d, "ret"));
}

/// An ibv_post_send or ibv_post_recv with its work request (the PostWr events).
QString postCode(const QString& name, const Fields& d, const Fields& ids) {
    QString sge = "NULL";
    QString sgeDecl;
    const auto sg = d.objects("sg_list");
    if (!sg.empty())
        sgeDecl = QStringLiteral("struct ibv_sge sge = { .addr = %1, .length = %2, .lkey = %3 };\n")
                      .arg(s(sg[0], "addr"), s(sg[0], "length"), hex(sg[0], "lkey"));
    if (!sg.empty()) sge = "&sge";
    if (s(d, "queue") == "recv")
        return sgeDecl + QStringLiteral("struct ibv_recv_wr wr = { .wr_id = %1, .sg_list = %2, .num_sge = %3 "
                                        "}, *bad;\nibv_post_recv(qp, &wr, &bad);  // returns %4")
                             .arg(s(ids, "wr_id"), sge)
                             .arg(sg.size())
                             .arg(s(d, "ret"));
    QString extra;
    if (d.has("remote_addr"))
        extra =
            QStringLiteral("\n    .wr.%1 = { .remote_addr = %2, .rkey = %3%4 },")
                .arg(
                    name.startsWith("ATOMIC") ? "atomic" : "rdma", s(d, "remote_addr"), hex(ids, "rkey"),
                    d.has("add") ? QStringLiteral(", .compare_add = %1").arg(s(d, "add"))
                    : d.has("compare")
                        ? QStringLiteral(", .compare_add = %1, .swap = %2").arg(s(d, "compare"), s(d, "swap"))
                        : QString());
    if (d.has("imm_data")) extra += QStringLiteral("\n    .imm_data = htonl(%1),").arg(s(d, "imm_data"));
    QStringList sendFlags;
    if (d.get<bool>("signaled", false)) sendFlags << "IBV_SEND_SIGNALED";
    if (d.get<bool>("inline", false)) sendFlags << "IBV_SEND_INLINE";
    return sgeDecl +
           QStringLiteral("struct ibv_send_wr wr = {\n    .wr_id = %1, .sg_list = %2, .num_sge = %3,\n"
                          "    .opcode = IBV_WR_%4, .send_flags = %5,%6\n}, *bad;\nibv_post_send(qp, "
                          "&wr, &bad);  // returns %7")
               .arg(s(ids, "wr_id"), sge)
               .arg(sg.size())
               .arg(name, sendFlags.isEmpty() ? "0" : sendFlags.join(" | "), extra, s(d, "ret"));
}

/// The work completion ibv_poll_cq returned (the Wc events).
QString completionCode(const QString& name, const Fields& d) {
    // ibv_poll_cq(3): when the status is not IBV_WC_SUCCESS only wr_id, status, qp_num and vendor_err are
    // valid, so a failed completion shows no opcode, byte_len or immediate data (docs/claims.md C2).
    if (name != QLatin1String("IBV_WC_SUCCESS"))
        return QStringLiteral(
                   "// the work completion ibv_poll_cq(cq, 1, &wc) returned:\n// wc.wr_id    == %1\n"
                   "// wc.status   == %2\n// wc.qp_num   == %3\n"
                   "// opcode and byte_len are not valid when status != IBV_WC_SUCCESS "
                   "(ibv_poll_cq(3))")
            .arg(s(d, "wr_id"), name, s(d, "qp_num"));
    // byte_len is defined for receives, RDMA Read and atomics; mlx5 leaves it unset for SEND and RDMA
    // WRITE completions, rxe fills it anyway (docs/lab-format.md, placeholder byte_len).
    const QString op = s(d, "opcode");
    const bool sendSide = op == QLatin1String("SEND") || op == QLatin1String("RDMA_WRITE");
    return QStringLiteral("// the work completion ibv_poll_cq(cq, 1, &wc) returned:\n// wc.wr_id    == %1\n"
                          "// wc.status   == %2\n// wc.opcode   == IBV_WC_%3\n// wc.byte_len == %4%5\n"
                          "// wc.qp_num   == %6%7")
        .arg(s(d, "wr_id"), name, op, s(d, "byte_len"),
             sendSide ? QStringLiteral("  (defined for receives, RDMA Read and atomics)") : QString(),
             s(d, "qp_num"),
             d.has("imm_data") ? QStringLiteral("\n// ntohl(wc.imm_data) == %1").arg(s(d, "imm_data"))
                               : QString());
}

} // namespace

QString verbsCode(const TraceEvent& e) {
    const Fields d(e.data, "data");
    const Fields ids(e.ids, "ids");
    const Fields args = d.object("args");
    const QString name = QString::fromStdString(e.name);
    switch (e.kind) {
    case EventKind::Verb:
        return verbCallCode(name, d, ids, args);
    case EventKind::QpState:
        return QStringLiteral(
                   "struct ibv_qp_attr attr = {\n%1\n};\nibv_modify_qp(qp, &attr,\n              %2);  // "
                   "%3, returns %4")
            .arg(qpAttrCode(d.object("attrs")), flags(d, "attr_mask", "IBV_QP_"), name, s(d, "ret"));
    case EventKind::PostWr:
        return postCode(name, d, ids);
    case EventKind::Wc:
        return completionCode(name, d);
    default:
        break;
    }
    return {};
}

} // namespace rdmalab::app
