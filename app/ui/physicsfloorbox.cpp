// The physics floor of a transfer next to the measured times (see physicsfloorbox.h).
#include "physicsfloorbox.h"

#include "physicsfloor.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rdmalab::app {

namespace {

QString formatSeconds(double seconds) {
    if (seconds >= 1.0) return QString::number(seconds, 'f', 3) + " s";
    if (seconds >= 1e-3) return QString::number(seconds * 1e3, 'f', 3) + " ms";
    if (seconds >= 1e-6) return QString::number(seconds * 1e6, 'f', 3) + " µs";
    return QString::number(seconds * 1e9, 'f', 3) + " ns";
}

// The unit the chart's axis uses: the one formatSeconds() would pick for the largest bar.
std::pair<double, QString> axisUnit(double largestSeconds) {
    if (largestSeconds >= 1.0) return {1.0, "s"};
    if (largestSeconds >= 1e-3) return {1e3, "ms"};
    if (largestSeconds >= 1e-6) return {1e6, "µs"};
    return {1e9, "ns"};
}

// "100", "100 Gb/s", "12,5": the leading number of what was typed or chosen.
double parseRateGbps(const QString& text) {
    static const QRegularExpression leadingNumber(QStringLiteral("^\\s*([0-9]+(?:[.,][0-9]+)?)"));
    const auto match = leadingNumber.match(text);
    if (!match.hasMatch()) return 0;
    QString number = match.captured(1);
    number.replace(',', '.');
    return number.toDouble();
}

} // namespace

PhysicsFloorBox::PhysicsFloorBox(QWidget* parent) : QGroupBox(parent) {
    setObjectName("physicsBox");
    rateLabel_ = new QLabel;
    rateCombo_ = new QComboBox;
    rateCombo_->setObjectName("physicsRate");
    rateCombo_->setEditable(true);
    rateCombo_->setInsertPolicy(QComboBox::NoInsert);
    // Data rates (docs/claims.md P2, P3): FDR's 56 Gb/s is a signalling rate and is not offered.
    for (int rate : {10, 25, 40, 50, 100, 200, 400})
        rateCombo_->addItem(QStringLiteral("%1 Gb/s").arg(rate));
    rateCombo_->setCurrentText("100 Gb/s");
    sizeLabel_ = new QLabel;
    sizeSpin_ = new QDoubleSpinBox;
    sizeSpin_->setObjectName("physicsSize");
    sizeSpin_->setRange(0.001, 1e9);
    sizeSpin_->setDecimals(3);
    sizeSpin_->setValue(100);
    sizeUnitCombo_ = new QComboBox;
    sizeUnitCombo_->setObjectName("physicsSizeUnit");
    // Decimal units as link rates are decimal; binary ones because buffer sizes usually are.
    const std::pair<const char*, double> units[] = {
        {"B", 1},        {"kB", 1e3},        {"MB", 1e6},          {"GB", 1e9},
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
    for (const auto& [name, bytes] : units)
        sizeUnitCombo_->addItem(name, bytes);
    sizeUnitCombo_->setCurrentText("MB");
    floorResultLabel_ = new QLabel;
    floorResultLabel_->setObjectName("physicsFloorResult");
    floorResultLabel_->setWordWrap(true);
    floorResultLabel_->setTextFormat(Qt::RichText);
    floorNoteLabel_ = new QLabel;
    floorNoteLabel_->setObjectName("physicsFloorNote");
    floorNoteLabel_->setWordWrap(true);
    measuredTimeLabel_ = new QLabel;
    measuredTimeLabel_->setObjectName("physicsMeasured");
    measuredTimeLabel_->setWordWrap(true);
    measuredTimeLabel_->setTextFormat(Qt::PlainText);
    buildChart();

    auto* inputs = new QHBoxLayout;
    inputs->addWidget(rateLabel_);
    inputs->addWidget(rateCombo_, 1);
    inputs->addSpacing(12);
    inputs->addWidget(sizeLabel_);
    inputs->addWidget(sizeSpin_, 1);
    inputs->addWidget(sizeUnitCombo_);
    auto* physicsLayout = new QVBoxLayout(this);
    physicsLayout->addLayout(inputs);
    physicsLayout->addWidget(floorResultLabel_);
    physicsLayout->addWidget(floorNoteLabel_);
    physicsLayout->addWidget(measuredTimeLabel_);
    physicsLayout->addWidget(chartView_, 1);

    connect(rateCombo_, &QComboBox::currentTextChanged, this, [this] { refresh(); });
    connect(sizeSpin_, &QDoubleSpinBox::valueChanged, this, [this] { refresh(); });
    connect(sizeUnitCombo_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    retranslate();
}

void PhysicsFloorBox::buildChart() {
    chart_ = new QChart;
    chart_->setAnimationOptions(QChart::NoAnimation);
    chart_->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart_->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9); // three entries with values fit in one line
    chart_->legend()->setFont(legendFont);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chartView_ = new QChartView(chart_);
    chartView_->setObjectName("physicsChart");
    chartView_->setRenderHint(QPainter::Antialiasing);
    chartView_->setMinimumHeight(100);
}

QString PhysicsFloorBox::tx(const QString& english, const QString& chinese) const {
    return language_ == "zh" ? chinese : english;
}

void PhysicsFloorBox::setRuns(const std::vector<BenchRun>& runs) {
    runs_ = runs;
    refresh();
}

void PhysicsFloorBox::setLanguage(const QString& lang) {
    if (lang == language_) return;
    language_ = lang;
    retranslate();
}

void PhysicsFloorBox::retranslate() {
    setTitle(tx("Physics floor: the serialization time of a transfer", "物理下限：一次传输的串行化时间"));
    rateLabel_->setText(tx("Link rate", "链路速率"));
    sizeLabel_->setText(tx("Transfer", "传输大小"));
    rateCombo_->setToolTip(
        tx("Choose or type a data rate in Gb/s (10⁹ bit/s). Ethernet rates are data rates; for "
           "InfiniBand enter EDR 100, FDR 54.5, QDR 32.",
           "选择或输入数据速率，单位 Gb/s（10⁹ bit/s）。以太网速率即数据速率；InfiniBand 请输入 "
           "EDR 100、FDR 54.5、QDR 32。"));
    sizeUnitCombo_->setToolTip(tx("kB, MB, GB are powers of 10; KiB, MiB, GiB powers of 2",
                                  "kB、MB、GB 按 10 的幂计算；KiB、MiB、GiB 按 2 的幂计算"));
    floorNoteLabel_->setText(tx(
        "A lower bound, not a prediction. For 10 to 400 Gb/s Ethernet and for EDR and HDR InfiniBand the "
        "nominal rate is already the data rate after line coding (64b/66b, 256b/257b), so coding takes "
        "nothing more from it; older links differ (QDR InfiniBand signals 40 Gb/s with 8b/10b and carries "
        "32, "
        "FDR's 56 Gb/s carry about 54.5). Every frame also carries bytes that are not payload: preamble and "
        "inter-frame gap, the Ethernet, IP and UDP headers, the InfiniBand transport headers (BTH, and RETH "
        "for RDMA), ICRC and FCS, about 2 % at a 4096-byte MTU. Propagation, switching and host time come "
        "on top.",
        "这是下限而不是预测。对 10 到 400 Gb/s 以太网以及 EDR、HDR InfiniBand "
        "来说，标称速率已经是经过线路编码"
        "（64b/66b、256b/257b）之后的数据速率，编码不会再从中扣除；较老的链路则不同（QDR InfiniBand 以 "
        "8b/10b "
        "编码传输 40 Gb/s 信号，只承载 32 Gb/s 数据；FDR 的 56 Gb/s 约承载 54.5 "
        "Gb/s）。每一帧还携带不属于有效载荷的"
        "字节：前导码和帧间隙，Ethernet、IP、UDP 报头，InfiniBand 传输头（BTH，RDMA 操作还有 RETH），以及 "
        "ICRC 和 "
        "FCS；在 4096 字节的 MTU 下约占 2%。此外还要加上传播、交换和主机处理的时间。"));
    refresh();
}

void PhysicsFloorBox::refresh() {
    const double rateGbps = parseRateGbps(rateCombo_->currentText());
    const double bytes = sizeSpin_->value() * sizeUnitCombo_->currentData().toDouble();
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    if (!(rateGbps > 0)) {
        floorResultLabel_->setText(
            tx("Enter a link rate in Gb/s, for example 100.", "请输入链路速率（Gb/s），例如 100。"));
        measuredTimeLabel_->clear();
        return;
    }
    const double floorSeconds = serializationSeconds(bytes, rateGbps);
    const QString sizeText = QStringLiteral("%1 %2").arg(QString::number(sizeSpin_->value(), 'g', 10),
                                                         sizeUnitCombo_->currentText());
    const QString rateText = QString::number(rateGbps, 'g', 10);
    floorResultLabel_->setText(
        tx("<b>Physics floor: %1</b> for %2 (%3 B) at %4 Gb/s = bytes × 8 ÷ rate.",
           "<b>物理下限：%1</b>，%2（%3 B），链路 %4 Gb/s = 字节数 × 8 ÷ 速率。")
            .arg(formatSeconds(floorSeconds), sizeText, QString::number(bytes, 'g', 12), rateText));

    std::vector<Bar> bars{{tx("physics floor", "物理下限"), floorSeconds}};
    measuredTimeLabel_->setText(measuredLines(bytes, floorSeconds, bars).join('\n'));
    drawBars(bars, sizeText);
}

QStringList PhysicsFloorBox::measuredLines(double bytes, double floorSeconds, std::vector<Bar>& bars) const {
    const QString measuredNames[] = {tx("RDMA measured", "RDMA 实测"), tx("TCP measured", "TCP 实测")};
    QStringList lines;
    const std::pair<Transport, QString> transports[] = {{Transport::Rdma, "RDMA"}, {Transport::Tcp, "TCP"}};
    bool anyMeasured = false;
    for (const auto& [transport, name] : transports) {
        const auto estimate = estimateTransferTime(runs_, bytes, transport);
        if (!estimate) {
            lines << (transport == Transport::Rdma
                          ? tx("No RDMA measurement to compare: measure write_bw, read_bw or send_bw.",
                               "没有可比较的 RDMA 测量：请先测量 write_bw、read_bw 或 send_bw。")
                          : tx("No TCP measurement to compare: measure tcp_bw.",
                               "没有可比较的 TCP 测量：请先测量 tcp_bw。"));
            continue;
        }
        anyMeasured = true;
        const QString figure =
            estimate->fromLatency
                ? tx("p50 %1 µs", "p50 %1 µs").arg(QString::number(estimate->figure, 'f', 2))
                : QStringLiteral("%1 MB/s").arg(QString::number(estimate->figure, 'f', 2));
        QString line =
            tx("%1 measured: %2, from %3 at %4 B on %5 (%6)", "%1 实测：%2，来自 %3（%4 B，设备 %5，%6）")
                .arg(name, formatSeconds(estimate->seconds), estimate->kind,
                     QString::number(estimate->runSize), estimate->device, figure);
        if (floorSeconds > 0)
            line += tx("; %1 × the floor.", "；为下限的 %1 倍。")
                        .arg(QString::number(estimate->seconds / floorSeconds, 'f', 1));
        if (estimate->softwareDevice) line += tx(" SoftRoCE: software RDMA.", " SoftRoCE：软件 RDMA。");
        lines << line;
        bars.push_back({measuredNames[transport == Transport::Rdma ? 0 : 1], estimate->seconds});
    }
    if (anyMeasured)
        lines << tx("The measurements ran on this host (loopback), not over a link of this rate.",
                    "这些测量在本机回环上进行，并没有经过这一速率的链路。");
    return lines;
}

void PhysicsFloorBox::drawBars(const std::vector<Bar>& bars, const QString& sizeText) {
    // Measured times on loopback or SoftRoCE can be hundreds of times the floor: a logarithmic axis
    // keeps every bar visible, and each legend entry carries its value.
    double largest = 0, smallest = std::numeric_limits<double>::infinity();
    for (const Bar& bar : bars) {
        largest = std::max(largest, bar.seconds);
        smallest = std::min(smallest, bar.seconds);
    }
    const auto [scale, unit] = axisUnit(largest);
    auto* series = new QHorizontalBarSeries;
    const QColor colors[] = {QColor("#4a4a4a"), QColor("#1f77b4"), QColor("#d62728")};
    for (std::size_t i = 0; i < bars.size(); ++i) {
        auto* set = new QBarSet(bars[i].name + tx(": ", "：") + formatSeconds(bars[i].seconds));
        *set << bars[i].seconds * scale;
        set->setColor(colors[std::min<std::size_t>(i, 2)]);
        series->append(set);
    }
    chart_->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(sizeText);
    chart_->addAxis(categories, Qt::AlignLeft);
    series->attachAxis(categories);
    auto* values = new QLogValueAxis;
    values->setBase(10);
    values->setLabelFormat("%g");
    values->setTitleText(tx("time (%1, logarithmic)", "时间（%1，对数刻度）").arg(unit));
    values->setMin(std::pow(10.0, std::floor(std::log10(smallest * scale)) - 1));
    values->setMax(std::pow(10.0, std::ceil(std::log10(largest * scale) + 1e-9)));
    chart_->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
}

} // namespace rdmalab::app
