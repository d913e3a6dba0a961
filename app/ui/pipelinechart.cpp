// The pipeline page of the measurement window: work requests in flight against the send-queue depth, and
// the caption with the ratios and the cost of tracing (see pipelinechart.h).
#include "pipelinechart.h"

#include "benchstats.h"

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rdmalab::app {

namespace {

double share(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : double(part) / double(whole);
}

} // namespace

PipelineChart::PipelineChart(QWidget* parent) : QWidget(parent) {
    setObjectName("pipelinePage");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    explanation_ = new QLabel(
        tr("No pipeline in this measurement. Tick \"Trace every work request\" (or start rdmalab with "
           "--trace-wr) and measure an RDMA kind: each run is then measured once untraced and once with "
           "every post, poll and completion traced, and the traced run's work requests in flight are drawn "
           "here as it goes."));
    explanation_->setObjectName("pipelineExplanation");
    explanation_->setWordWrap(true);
    explanation_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(explanation_);
    buildChart();
    layout->addWidget(view_, 1);
    caption_ = new QLabel;
    caption_->setObjectName("pipelineCaption");
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(caption_);
    redraw(nullptr, {}, false);
}

void PipelineChart::buildChart() {
    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setAnimationOptions(QChart::NoAnimation); // slices arrive every 40 ms
    // Readable on a projector: nothing smaller than the window's own text.
    const QFont normal = QApplication::font();
    QFont title = normal;
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(normal);
    chart->legend()->setAlignment(Qt::AlignBottom);

    // The most in flight as a filled area: where it reaches the dashed depth line the pipeline is full.
    outstandingMax_ = new QLineSeries;
    outstandingMaxArea_ = new QAreaSeries(outstandingMax_);
    outstandingMax_->setParent(outstandingMaxArea_); // an area series does not own its line series
    outstandingMaxArea_->setName(tr("most work requests in flight in the slice"));
    outstandingMaxArea_->setColor(QColor(0x1f, 0x77, 0xb4, 90));
    outstandingMaxArea_->setBorderColor(QColor(0x1f, 0x77, 0xb4));
    outstandingEnd_ = new QLineSeries;
    outstandingEnd_->setName(tr("in flight at the slice's end"));
    outstandingEnd_->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 2));
    outstandingEnd_->setPointsVisible(true);
    depthLine_ = new QLineSeries;
    depthLine_->setPen(QPen(QColor(0xd6, 0x27, 0x28), 3, Qt::DashLine));
    const QList<QAbstractSeries*> series{outstandingMaxArea_, outstandingEnd_, depthLine_};
    for (QAbstractSeries* s : series)
        chart->addSeries(s);

    auto axis = [&](const QString& text, Qt::Alignment where) {
        auto* a = new QValueAxis;
        a->setTitleText(text);
        a->setTitleFont(normal);
        a->setLabelsFont(normal);
        a->setLabelFormat("%g");
        chart->addAxis(a, where);
        for (QAbstractSeries* s : series)
            s->attachAxis(a);
        return a;
    };
    timeAxis_ = axis(tr("seconds since the traced run's first work request"), Qt::AlignBottom);
    countAxis_ = axis(tr("work requests in flight"), Qt::AlignLeft);

    view_ = new QChartView(chart);
    view_->setObjectName("pipelineChart");
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumSize(320, 200);
}

QString PipelineChart::deviceText(const QString& device, bool softwareDevice) {
    if (device.isEmpty()) return tr("the device");
    return softwareDevice ? tr("%1 (SoftRoCE, software)").arg(device) : tr("%1 (hardware)").arg(device);
}

QString PipelineChart::pipelineText(const BenchRun& run, const QString& device) {
    const fast::PipelineBucket total = run.pipelineTotal();
    QString text = tr("%1 %2 on %3: %4 posts per doorbell, %5 completions per poll, %6 % of polls empty")
                       .arg(run.kind, sizeText(run.size), device)
                       .arg(share(total.posts, total.doorbells), 0, 'f', 2)
                       .arg(share(total.completions, total.polls_hit), 0, 'f', 2)
                       .arg(100 * share(total.polls_empty, total.polls_hit + total.polls_empty), 0, 'f', 1);
    if (run.signalEvery > 0) text += tr(", signaled 1 in %1").arg(run.signalEvery);
    return text +
           tr("; %1 slices over %2 s").arg(run.pipeline.size()).arg(figureText(run.pipeline.back().tS, 3));
}

QString PipelineChart::costText(const BenchRun& run, const QString& device) {
    if (!run.wrTrace) return tr("Tracing every work request: what it cost appears when the run ends.");
    const WrTraceFigures& w = *run.wrTrace;
    const QString ratio = QString::number(w.ratio, 'f', 2);
    QString text =
        w.figure == QLatin1String("p50_us")
            ? tr("Tracing every work request: untraced/traced p50 latency %1 on %2").arg(ratio, device)
            : tr("Tracing every work request: traced/untraced %1 on %2").arg(ratio, device);
    text += tr(", +%1 per work request").arg(latencyText(w.nsPerWr / 1000));
    if (w.overruns > 0) text += tr(", %1 records dropped (the ring was full)").arg(w.overruns);
    const QString again = QStringLiteral("rdmalab-cli bench %1 --trace-wr --trace-wr-rounds 5").arg(run.kind);
    if (w.rounds <= 1)
        return text + tr(" — one untraced and one traced run; runs vary, `%1` gives medians").arg(again);
    return text + tr(" — medians of %1 untraced and %1 traced runs, alternated").arg(w.rounds);
}

void PipelineChart::redraw(const BenchRun* run, const QString& device, bool softwareDevice) {
    const bool drawn = run && !run->pipeline.empty();
    explanation_->setVisible(!drawn);
    view_->setVisible(drawn);
    caption_->setVisible(drawn);
    if (!drawn) {
        for (QLineSeries* s : {outstandingMax_, outstandingEnd_, depthLine_})
            s->clear();
        return;
    }
    const QString where =
        run->finished ? deviceText(run->device, run->softwareDevice) : deviceText(device, softwareDevice);
    QList<QPointF> most, atEnd;
    most.reserve(qsizetype(run->pipeline.size()));
    atEnd.reserve(qsizetype(run->pipeline.size()));
    double top = double(run->pipelineDepth);
    for (const auto& slice : run->pipeline) {
        most.append(QPointF(slice.tS, double(slice.bucket.outstanding_max)));
        atEnd.append(QPointF(slice.tS, double(slice.bucket.outstanding_end)));
        top = std::max(top, double(slice.bucket.outstanding_max));
    }
    outstandingMax_->replace(most);
    outstandingEnd_->replace(atEnd);
    const double end = std::max(0.01, run->pipeline.back().tS);
    // Ticks at 1, 2 or 5 times a power of ten, about five of them, ending just past the run's end
    // (applyNiceNumbers would stretch 1.05 s to 1.5 s).
    const double rough = end / 5;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    const double scaled = rough / power; // 1 .. 10: the nearest of 1, 2, 5 and 10
    const double step = power * (scaled <= 1.5 ? 1 : scaled <= 3.5 ? 2 : scaled <= 7.5 ? 5 : 10);
    const double steps = std::ceil(end / step - 1e-9);
    timeAxis_->setRange(0, steps * step);
    timeAxis_->setTickCount(int(steps) + 1);
    countAxis_->setRange(0, std::max(1.0, top * 1.1));
    countAxis_->applyNiceNumbers();
    if (run->pipelineDepth > 0) {
        depthLine_->replace(QList<QPointF>{QPointF(0, double(run->pipelineDepth)),
                                           QPointF(timeAxis_->max(), double(run->pipelineDepth))});
        depthLine_->setName(tr("send-queue depth %1").arg(run->pipelineDepth));
    } else {
        depthLine_->clear();
    }
    view_->chart()->legend()->markers(depthLine_).first()->setVisible(run->pipelineDepth > 0);
    view_->chart()->setTitle(tr("Work requests in flight against the send-queue depth — %1 %2 on %3")
                                 .arg(run->kind, sizeText(run->size), where));
    const QString caption = pipelineText(*run, where) + QLatin1Char('\n') + costText(*run, where);
    if (caption != caption_->text()) caption_->setText(caption);
}

} // namespace rdmalab::app
