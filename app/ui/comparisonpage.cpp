#include "comparisonpage.h"

#include "physicsfloorbox.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace rdmalab::app {

namespace {

enum Column {
    ColSize,
    ColMeasurement,
    ColDevice,
    ColLatency,
    ColBandwidthMBps,
    ColBandwidthGbps,
    ColCpuUser,
    ColCpuSys,
    ColSwitches,
    ColSyscalls,
    ColRelative,
    ColumnCount
};

// Latency kinds before bandwidth kinds, TCP first within each, so that every size reads TCP, then
// the RDMA operations measured the same way.
int kindOrder(const QString& kind) {
    static const QStringList order{"tcp_lat", "send_lat", "write_lat", "read_lat", "atomic_lat",
                                   "tcp_bw",  "write_bw", "read_bw",   "send_bw"};
    const auto i = order.indexOf(kind);
    return i < 0 ? static_cast<int>(order.size()) : static_cast<int>(i);
}

bool isFullRoundTrip(const BenchRun& run) {
    if (!run.latencyBasis.isEmpty()) return run.latencyBasis.startsWith("full");
    return run.kind == "read_lat" || run.kind == "atomic_lat";
}

QTableWidgetItem* item(const QString& text, Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter) {
    auto* cell = new QTableWidgetItem(text);
    cell->setTextAlignment(alignment);
    cell->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return cell;
}

QTableWidgetItem* numberItem(const QString& text) {
    return item(text, Qt::AlignRight | Qt::AlignVCenter);
}

} // namespace

ComparisonPage::ComparisonPage(QWidget* parent) : QWidget(parent) {
    setObjectName("comparisonPage");
    buildHeader();
    buildMeasuredBox();
    buildLiteratureBox();
    physicsBox_ = new PhysicsFloorBox;

    // Measured figures on top, literature and physics floor below; the splitters let a reader give
    // room to what they are reading, and every table scrolls on its own, so at 1280x800 nothing is cut.
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(literatureBox_);
    bottom->addWidget(physicsBox_);
    bottom->setStretchFactor(0, 11);
    bottom->setStretchFactor(1, 9);
    bottom->setChildrenCollapsible(false);
    bottom->setSizes({11000, 9000}); // proportions; the splitter scales them to its width
    auto* sections = new QSplitter(Qt::Vertical);
    sections->addWidget(measuredBox_);
    sections->addWidget(bottom);
    sections->setStretchFactor(0, 5);
    sections->setStretchFactor(1, 6);
    sections->setChildrenCollapsible(false);
    sections->setSizes({3000, 3900});
    // Small enough for a 1024x768 screen (or a 1280x720 projector); the splitters give the rest.
    measuredBox_->setMinimumHeight(120);
    literatureBox_->setMinimumSize(300, 160);
    physicsBox_->setMinimumSize(280, 160);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(titleLabel_);
    layout->addWidget(deviceLabel_);
    layout->addWidget(softwareDeviceLabel_);
    layout->addWidget(sections, 1);

    // Row heights follow the column widths (word-wrapped text), which change with the window.
    for (QTableWidget* table : {comparisonTable_, literatureTable_})
        connect(table->horizontalHeader(), &QHeaderView::sectionResized, this,
                [this] { scheduleRowLayout(); });

    retranslate();
}

void ComparisonPage::buildHeader() {
    titleLabel_ = new QLabel;
    titleLabel_->setObjectName("comparisonTitle");
    QFont titleFont = titleLabel_->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleLabel_->setFont(titleFont);

    deviceLabel_ = new QLabel;
    deviceLabel_->setObjectName("deviceLabel");
    deviceLabel_->setWordWrap(true);
    deviceLabel_->setTextFormat(Qt::PlainText); // device names come from the runs (or a recording)

    softwareDeviceLabel_ = new QLabel;
    softwareDeviceLabel_->setObjectName("softwareDeviceLabel");
    softwareDeviceLabel_->setWordWrap(true);
    softwareDeviceLabel_->setTextFormat(Qt::RichText);
    softwareDeviceLabel_->setStyleSheet(
        "QLabel { background: #fff4ce; color: #3a2d00; border: 1px solid #d8b600; padding: 6px; }");
    softwareDeviceLabel_->hide();
}

void ComparisonPage::buildMeasuredBox() {
    // Measured: two rows per finished run, its figures and, spanning the table, its data path.
    measuredBox_ = new QGroupBox;
    measuredBox_->setObjectName("measuredBox");
    comparisonTable_ = new QTableWidget(0, ColumnCount);
    comparisonTable_->setObjectName("comparisonTable");
    comparisonTable_->setWordWrap(true);
    comparisonTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    comparisonTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    comparisonTable_->verticalHeader()->hide();
    comparisonTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    comparisonTable_->horizontalHeader()->setSectionResizeMode(ColRelative, QHeaderView::Stretch);
    comparisonTable_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    comparisonTable_->setFocusPolicy(Qt::NoFocus); // no focus frame on a cell of a read-only table
    // A scroll bar that comes and goes would change the width the rows were measured for.
    comparisonTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    const std::pair<Column, int> widths[] = {
        {ColSize, 60},           {ColMeasurement, 230},  {ColDevice, 200}, {ColLatency, 90},
        {ColBandwidthMBps, 110}, {ColBandwidthGbps, 80}, {ColCpuUser, 90}, {ColCpuSys, 90},
        {ColSwitches, 100},      {ColSyscalls, 90}};
    for (const auto& [column, width] : widths)
        comparisonTable_->setColumnWidth(column, width);
    auto* measuredLayout = new QVBoxLayout(measuredBox_);
    measuredLayout->addWidget(comparisonTable_);
}

void ComparisonPage::buildLiteratureBox() {
    // Literature: kept in its own box, never mixed with measured numbers.
    literatureBox_ = new QGroupBox;
    literatureBox_->setObjectName("literatureBox");
    literatureBox_->setStyleSheet("QGroupBox#literatureBox { font-style: italic; }"
                                  "QGroupBox#literatureBox QLabel, QGroupBox#literatureBox QTableWidget "
                                  "{ font-style: normal; }");
    literatureNote_ = new QLabel;
    literatureNote_->setObjectName("literatureNote");
    literatureNote_->setWordWrap(true);
    literatureTable_ = new QTableWidget(4, 3);
    literatureTable_->setObjectName("literatureTable");
    literatureTable_->setWordWrap(true);
    literatureTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    literatureTable_->verticalHeader()->hide();
    literatureTable_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    literatureTable_->setFocusPolicy(Qt::NoFocus);
    literatureTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    literatureTable_->setColumnWidth(0, 140);
    literatureTable_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    literatureTable_->setColumnWidth(2, 200);
    auto* literatureLayout = new QVBoxLayout(literatureBox_);
    literatureLayout->addWidget(literatureNote_);
    literatureLayout->addWidget(literatureTable_, 1);
}

QString ComparisonPage::tx(const QString& english, const QString& chinese) const {
    return language_ == "zh" ? chinese : english;
}

void ComparisonPage::setRuns(const std::vector<BenchRun>& runs) {
    runs_ = runs;
    fillDeviceLabels();
    fillComparisonTable();
    physicsBox_->setRuns(runs);
}

void ComparisonPage::setLanguage(const QString& lang) {
    const QString chosen = lang == "zh" ? QStringLiteral("zh") : QStringLiteral("en");
    if (chosen == language_) return;
    language_ = chosen;
    retranslate();
}

void ComparisonPage::retranslate() {
    titleLabel_->setText(tx("TCP and RDMA, measured side by side", "TCP 与 RDMA：并排测量"));
    measuredBox_->setTitle(
        tx("Measured here: each number names the device it ran on", "本机测得：每个数字都注明所用设备"));
    // Explicit line breaks: QHeaderView sizes its height to them, not to word-wrapped text.
    comparisonTable_->setHorizontalHeaderLabels({
        tx("Size\n(B)", "大小\n(B)"),
        tx("Measurement", "测量"),
        tx("Device", "设备"),
        tx("Latency p50\n(µs)", "延迟 p50\n(µs)"),
        tx("Bandwidth MB/s\n(10⁶ B/s)", "带宽 MB/s\n(10⁶ B/s)"),
        tx("Bandwidth\nGb/s", "带宽\nGb/s"),
        tx("CPU user\n(µs/msg)", "CPU 用户态\n(µs/消息)"),
        tx("CPU sys\n(µs/msg)", "CPU 内核态\n(µs/消息)"),
        tx("Context\nswitches/msg", "上下文切换\n(次/消息)"),
        tx("System calls\nper msg", "系统调用\n(次/消息)"),
        tx("Relative to TCP\n(same size)", "相对 TCP\n（同一大小）"),
    });
    literatureBox_->setTitle(
        tx("Reference figures from the literature — not measured here", "文献中的参考数字——并非本机测得"));
    literatureNote_->setText(
        tx("One-way latencies of small messages on hardware as the course material quotes them, checked "
           "against the sources named. Other people's hardware and setups: not results of this lab.",
           "课程材料引用的硬件小消息单向延迟，已对照所列来源核对。它们来自别人的硬件和环境，并非本实验的结果"
           "。"));
    fillDeviceLabels();
    fillComparisonTable();
    fillLiteratureTable();
    physicsBox_->setLanguage(language_);
}

void ComparisonPage::fillDeviceLabels() {
    QStringList devices;
    QStringList softwareDevices;
    for (const BenchRun& run : runs_) {
        if (!run.finished) continue;
        if (!devices.contains(run.device)) devices << run.device;
        if (run.softwareDevice && !softwareDevices.contains(run.device)) softwareDevices << run.device;
    }
    if (devices.isEmpty()) {
        deviceLabel_->setText(tx("No finished measurements yet. Run them in the benchmark window; this page "
                                 "only shows the results it is given.",
                                 "还没有完成的测量。请在测量窗口中运行；本页只显示交给它的结果。"));
    } else {
        deviceLabel_->setText(
            tx("Measured on: %1. A and B are two threads of one process on this host, so the CPU figures "
               "cover both sides.",
               "测量所用设备：%1。A 与 B 是本机同一进程中的两个线程，因此 CPU 数字包含两端。")
                .arg(devices.join(tx("; ", "；"))));
    }
    softwareDeviceLabel_->setVisible(!softwareDevices.isEmpty());
    if (softwareDevices.isEmpty()) return;
    softwareDeviceLabel_->setText(
        tx("<b>%1 is SoftRoCE (rdma_rxe): RDMA implemented in software by the Linux kernel.</b> The "
           "doorbell is a system call, and the kernel does the transport and the copies, so its numbers "
           "and its kernel (sys) CPU time are not those of an RDMA NIC.",
           "<b>%1 是 SoftRoCE（rdma_rxe）：由 Linux 内核用软件实现的 RDMA。</b>门铃是一次系统调用，"
           "传输和数据复制都由内核完成，因此它的数字和内核态（sys）CPU 时间都不代表 RDMA 网卡。")
            .arg(softwareDevices.join(", ").toHtmlEscaped()));
}

QString ComparisonPage::kindDescription(const BenchRun& run) const {
    static const std::map<QString, std::pair<QString, QString>> names{
        {"tcp_lat", {"TCP ping-pong", "TCP 乒乓"}},
        {"send_lat", {"RDMA SEND/RECV ping-pong", "RDMA SEND/RECV 乒乓"}},
        {"write_lat", {"RDMA WRITE ping-pong", "RDMA WRITE 乒乓"}},
        {"read_lat", {"RDMA READ", "RDMA READ"}},
        {"atomic_lat", {"RDMA FETCH_AND_ADD", "RDMA FETCH_AND_ADD"}},
        {"tcp_bw", {"TCP stream", "TCP 流"}},
        {"write_bw", {"RDMA WRITE stream", "RDMA WRITE 流"}},
        {"read_bw", {"RDMA READ stream", "RDMA READ 流"}},
        {"send_bw", {"RDMA SEND stream", "RDMA SEND 流"}},
    };
    const auto found = names.find(run.kind);
    QString text = run.kind;
    if (found != names.end()) text += QStringLiteral(" — ") + tx(found->second.first, found->second.second);
    if (run.isLatency())
        text += '\n' + (isFullRoundTrip(run) ? tx("full round trip", "完整往返")
                                             : tx("half round trip", "半个往返"));
    return text;
}

QString ComparisonPage::dataPathText(const BenchRun& run) const {
    if (run.isTcp()) {
        const QString calls =
            run.isLatency()
                ? tx("Per message a send() system call on the sender and a recv() on the receiver.",
                     "每条消息：发送端一次 send() 系统调用，接收端一次 recv()。")
                : tx("Each message is one send() system call; each recv() system call on the receiver takes "
                     "whatever has arrived.",
                     "每条消息是一次 send() 系统调用；接收端每次 recv() 系统调用取走已到达的数据。");
        return calls + ' ' +
               tx("The CPU copies the payload twice: user buffer → socket buffer → user buffer. The kernel's "
                  "TCP/IP stack does the transport.",
                  "CPU 复制两次数据：用户缓冲区 → 套接字缓冲区 → 用户缓冲区。传输由内核的 TCP/IP "
                  "协议栈完成。");
    }
    QString text;
    if (run.softwareDevice)
        text = tx(
            "The application posts work requests (ibv_post_send, and ibv_post_recv for SEND/RECV) and "
            "polls the completion queue (ibv_poll_cq). On SoftRoCE the doorbell of ibv_post_send is a "
            "write() system call, and the kernel's rxe driver does the transport on a CPU and copies the "
            "payload; ibv_post_recv and ibv_poll_cq stay in user space, on rings the kernel shares with "
            "the process. (On a hardware NIC: no system call and no CPU copy; the NIC does the transport "
            "and moves the bytes by DMA.)",
            "应用提交工作请求（ibv_post_send，SEND/RECV 还有 ibv_post_recv）并轮询完成队列（ibv_poll_cq）。"
            "在 SoftRoCE 上，ibv_post_send 的门铃是一次 write() 系统调用，传输由内核的 rxe 驱动在 CPU "
            "上完成，"
            "数据也由它复制；ibv_post_recv 和 ibv_poll_cq 停留在用户态，操作的是内核与进程共享的环形队列。"
            "（在硬件网卡上：没有系统调用，没有 CPU 复制；传输由网卡完成，数据由网卡通过 DMA 搬运。）");
    else
        text = tx(
            "The application posts work requests (ibv_post_send, and ibv_post_recv for SEND/RECV) and polls "
            "the completion queue (ibv_poll_cq) from user space: no system call and no CPU copy on the "
            "steady-state data path; the NIC does the transport and moves the bytes by DMA.",
            "应用在用户态提交工作请求（ibv_post_send，SEND/RECV 还有 ibv_post_recv）并轮询完成队列"
            "（ibv_poll_cq）：稳态数据路径上没有系统调用，也没有 CPU 复制；传输由网卡完成，数据由网卡通过 "
            "DMA "
            "搬运。");
    text += ' ';
    // One-sided: the remote application runs no code; who does the remote side's work depends on the device.
    const QString remoteWork =
        run.softwareDevice ? tx(" On SoftRoCE the remote side's work is done by the rxe driver, on a CPU.",
                                "在 SoftRoCE 上，远端的工作由 rxe 驱动在 CPU 上完成。")
                           : tx(" The remote CPU runs no code for it: the remote NIC does the work.",
                                "远端 CPU 不为此执行任何代码：工作由远端网卡完成。");
    if (run.kind == "write_lat")
        text +=
            tx("WRITE is one-sided: the remote application takes no part in the transfer (here it polls its "
               "buffer to notice the data, then writes its reply).",
               "WRITE 是单边操作：远端应用程序不参与传输（这里它轮询自己的缓冲区来发现数据到达，"
               "然后写回应答）。") +
            remoteWork;
    else if (run.kind == "write_bw")
        text += tx("WRITE is one-sided: the remote application takes no part in the transfer.",
                   "WRITE 是单边操作：远端应用程序不参与传输。") +
                remoteWork;
    else if (run.kind.startsWith("read"))
        text += tx("READ is one-sided: the remote memory is read without the remote application taking part.",
                   "READ 是单边操作：读取远端内存无需远端应用程序参与。") +
                remoteWork;
    else if (run.kind.startsWith("atomic"))
        text += tx("FETCH_AND_ADD is one-sided: it is performed on the remote memory without the remote "
                   "application taking part.",
                   "FETCH_AND_ADD 是单边操作：它在远端内存上执行，无需远端应用程序参与。") +
                remoteWork;
    else if (run.kind.startsWith("send"))
        text += tx("SEND/RECV is two-sided: the receiver posts a receive request (ibv_post_recv) for every "
                   "message and polls its own completion.",
                   "SEND/RECV 是双边操作：接收端须为每条消息预先提交接收请求（ibv_post_recv），"
                   "并轮询自己的完成。");
    return text;
}

QString ComparisonPage::relativeToTcpText(const BenchRun& run) const {
    if (run.isTcp()) return tx("reference", "参照");
    if (run.noSamples) return {};
    const QString tcpKind = run.isLatency() ? "tcp_lat" : "tcp_bw";
    const auto tcp = std::find_if(runs_.begin(), runs_.end(), [&](const BenchRun& r) {
        return r.finished && r.kind == tcpKind && r.size == run.size;
    });
    if (tcp == runs_.end()) return tx("no TCP run at this size", "此大小没有 TCP 测量");
    if (run.isLatency()) {
        if (!run.latency || !tcp->latency || !(tcp->latency->p50 > 0)) return {};
        const QString ratio = QString::number(run.latency->p50 / tcp->latency->p50, 'f', 2);
        QString text = tx("%1 × TCP's p50", "TCP p50 的 %1 倍").arg(ratio);
        if (isFullRoundTrip(run))
            text += '\n' + tx("(a full round trip against TCP's half)", "（完整往返对比 TCP 的半个往返）");
        return text;
    }
    if (!(tcp->bwMBps > 0)) return {};
    return tx("%1 × TCP's bandwidth", "TCP 带宽的 %1 倍")
        .arg(QString::number(run.bwMBps / tcp->bwMBps, 'f', 2));
}

void ComparisonPage::fillComparisonTable() {
    std::vector<const BenchRun*> shown;
    for (const BenchRun& run : runs_)
        if (run.finished) shown.push_back(&run);
    std::stable_sort(shown.begin(), shown.end(), [](const BenchRun* a, const BenchRun* b) {
        if (a->size != b->size) return a->size < b->size;
        return kindOrder(a->kind) < kindOrder(b->kind);
    });
    comparisonTable_->clearSpans();
    comparisonTable_->setRowCount(static_cast<int>(shown.size()) * 2);
    const QString none = QStringLiteral("—");
    for (int i = 0; i < static_cast<int>(shown.size()); ++i) {
        const BenchRun& run = *shown[i];
        const int row = 2 * i;
        QString device = run.device;
        if (run.softwareDevice) device += '\n' + tx("SoftRoCE: software RDMA", "SoftRoCE：软件 RDMA");
        const bool latency = run.isLatency() && run.latency;
        // A run stopped before its first iteration has no figures: it says so instead of showing 0.
        const QString noSamples = tx("no samples", "无样本");
        auto figure = [&](bool applies, double value, int decimals) {
            if (!applies) return QString(none); // a copy: `none` is the caller's
            return run.noSamples ? noSamples : QString::number(value, 'f', decimals);
        };
        comparisonTable_->setItem(row, ColSize, numberItem(QString::number(run.size)));
        comparisonTable_->setItem(row, ColMeasurement, item(kindDescription(run)));
        comparisonTable_->setItem(row, ColDevice, item(device));
        comparisonTable_->setItem(row, ColLatency,
                                  numberItem(figure(run.isLatency() && (latency || run.noSamples),
                                                    latency ? run.latency->p50 : 0, 2)));
        comparisonTable_->setItem(row, ColBandwidthMBps, numberItem(figure(!run.isLatency(), run.bwMBps, 2)));
        comparisonTable_->setItem(row, ColBandwidthGbps, numberItem(figure(!run.isLatency(), run.bwGbps, 3)));
        comparisonTable_->setItem(
            row, ColCpuUser,
            numberItem(run.noSamples ? none : QString::number(run.cpu.userUsPerMsg, 'f', 2)));
        comparisonTable_->setItem(
            row, ColCpuSys, numberItem(run.noSamples ? none : QString::number(run.cpu.sysUsPerMsg, 'f', 2)));
        comparisonTable_->setItem(
            row, ColSwitches,
            numberItem(run.noSamples ? none : QString::number(run.cpu.switchesPerMsg, 'f', 3)));
        comparisonTable_->setItem(
            row, ColSyscalls,
            numberItem(run.cpu.syscallsPerMsg ? QString::number(*run.cpu.syscallsPerMsg, 'f', 2) : none));
        comparisonTable_->setItem(row, ColRelative, item(relativeToTcpText(run)));
        if (run.softwareDevice)
            for (int column : {ColDevice, ColCpuSys})
                comparisonTable_->item(row, column)->setBackground(QColor("#fff4ce"));
        // The data path of this run, across the whole width under its figures.
        auto* path = item(tx("Data path: ", "数据路径：") + dataPathText(run), Qt::AlignLeft | Qt::AlignTop);
        path->setBackground(QColor("#f2f4f7"));
        path->setForeground(QColor("#2b2f36"));
        comparisonTable_->setItem(row + 1, 0, path);
        comparisonTable_->setSpan(row + 1, 0, 1, ColumnCount);
    }
    scheduleRowLayout();
}

void ComparisonPage::scheduleRowLayout() {
    if (rowLayoutPending_) return;
    rowLayoutPending_ = true;
    QTimer::singleShot(0, this, [this] { layoutRows(); });
}

void ComparisonPage::layoutRows() {
    rowLayoutPending_ = false;
    comparisonTable_->resizeRowsToContents();
    // resizeRowsToContents() measures a spanning cell as if it were as narrow as its first column, so
    // the data-path rows are measured at the width they actually span.
    const QFontMetrics metrics(comparisonTable_->font());
    const int spanWidth = std::max(200, comparisonTable_->viewport()->width() - 12);
    for (int row = 1; row < comparisonTable_->rowCount(); row += 2) {
        const QTableWidgetItem* path = comparisonTable_->item(row, 0);
        if (!path) continue;
        const QRect bounds =
            metrics.boundingRect(QRect(0, 0, spanWidth, 100000), Qt::TextWordWrap, path->text());
        comparisonTable_->setRowHeight(row, bounds.height() + 10);
    }
    literatureTable_->resizeRowsToContents();
}

void ComparisonPage::fillLiteratureTable() {
    literatureTable_->setHorizontalHeaderLabels({
        tx("Figure usually quoted\n(not measured here)", "常被引用的数字\n（并非本机测得）"),
        tx("What the sources checked say", "核对来源后的结论"),
        tx("Sources", "来源"),
    });
    struct Row {
        QString technology, quoted, finding, source;
    };
    const Row rows[] = {
        {"InfiniBand", tx("about 0.6–1 µs", "约 0.6–1 µs"),
         tx("Consistent: ib_send_lat medians of 0.81–0.83 µs (RC, 32 B, inline) between two ConnectX-4 "
            "100 Gb/s adapters on a 0.5 m direct cable.",
            "相符：两块 ConnectX-4 100 Gb/s 网卡经 0.5 m 直连线缆，ib_send_lat 中位数 0.81–0.83 µs"
            "（RC，32 B，inline）。"),
         tx("D. Potter, master's thesis, RWTH Aachen University, 2018: InfiniBand for the co-simulation "
            "framework VILLASnode (ib_send_lat table); git.dennispotter.eu/Dennis/masters-thesis",
            "D. Potter，硕士论文，亚琛工业大学，2018：在协同仿真框架 VILLASnode 中使用 InfiniBand"
            "（ib_send_lat 结果表）；git.dennispotter.eu/Dennis/masters-thesis")},
        {"RoCE v2", tx("about 1.5–3 µs", "约 1.5–3 µs"),
         tx("Not confirmed as a range. Vendor briefs claim less for the adapter alone: ConnectX-5 EN "
            "\"sub-600ns latency\", ConnectX-6 EN \"sub 0.8usec latency\". In 2011 Mellanox quoted about "
            "1.3 µs for RoCE (v1) on ConnectX-2 at 10 GbE. Switches and software add to such figures.",
            "作为区间未能证实。厂商简介给出的单卡数字更低：ConnectX-5 EN 称\"sub-600ns latency\"，"
            "ConnectX-6 EN 称\"sub 0.8usec latency\"。2011 年 Mellanox 称 ConnectX-2 在 10 GbE 上的 RoCE"
            "（v1）约 1.3 µs。交换机和软件会在此之上增加延迟。"),
         tx("Mellanox ConnectX-5 EN and ConnectX-6 EN adapter card product briefs; The Register, "
            "6 June 2011, \"Mellanox forges switch-hitting ConnectX-3 adapters\" "
            "(page 2, on the then current ConnectX-2)",
            "Mellanox ConnectX-5 EN 与 ConnectX-6 EN 网卡产品简介；The Register，2011 年 6 月 6 日，"
            "关于 Mellanox ConnectX-3 芯片的报道\"Mellanox forges switch-hitting ConnectX-3 adapters\""
            "（第 2 页，谈的是当时的 ConnectX-2）")},
        {"iWARP", tx("about 5–10 µs", "约 5–10 µs"),
         tx("Dated. 5–10 µs is what Mellanox said in 2011 of \"other commercially available adapters\" "
            "(not named as iWARP). Chelsio states about 1.5 µs end-to-end RDMA latency for its T5 iWARP "
            "adapters (half that of T4) and sub-microsecond latency for T6.",
            "已经过时。5–10 µs 是 2011 年 Mellanox 对\"其他市售网卡\"的说法（并未点名 iWARP）。"
            "Chelsio 称其 T5 iWARP 网卡端到端 RDMA 延迟约 1.5 µs（为 T4 的一半），T6 低于 1 µs。"),
         tx("Chelsio, \"RDMA – iWARP\" (chelsio.com/nic/rdma-iwarp/) and its iWARP RDMA page on T5/T6; "
            "The Register, 6 June 2011",
            "Chelsio，\"RDMA – iWARP\"（chelsio.com/nic/rdma-iwarp/）及其 T5/T6 iWARP RDMA 页面；"
            "The Register，2011 年 6 月 6 日")},
        {tx("Kernel TCP", "内核 TCP"), tx("about 20–50 µs", "约 20–50 µs"),
         tx("No source found that states this range. The one measurement found: 110 µs round trip, and "
            "220 µs after a kernel upgrade (about 55 and 110 µs one way), for 100-byte TCP messages between "
            "two hosts with Intel 1 GbE NICs. Kernel TCP latency depends strongly on the NIC, interrupt "
            "moderation, the CPU and the kernel.",
            "没有找到给出这一区间的来源。找到的唯一测量：两台使用 Intel 1 GbE 网卡的主机之间，100 字节 TCP "
            "消息往返 110 µs，升级内核后 220 µs（单向约 55 与 110 µs）。内核 TCP 延迟在很大程度上取决于"
            "网卡、中断合并、CPU 和内核版本。"),
         tx("Server Fault question 791539, \"Higher TCP latencies in the latest versions of Linux\" (2016)",
            "Server Fault 问题 791539，\"Higher TCP latencies in the latest versions of Linux\"（2016）")},
    };
    for (int row = 0; row < 4; ++row) {
        auto* technology = item(rows[row].technology + '\n' + rows[row].quoted, Qt::AlignLeft | Qt::AlignTop);
        QFont bold = technology->font();
        bold.setBold(true);
        technology->setFont(bold);
        literatureTable_->setItem(row, 0, technology);
        literatureTable_->setItem(row, 1, item(rows[row].finding, Qt::AlignLeft | Qt::AlignTop));
        literatureTable_->setItem(row, 2, item(rows[row].source, Qt::AlignLeft | Qt::AlignTop));
    }
    scheduleRowLayout();
}

} // namespace rdmalab::app
