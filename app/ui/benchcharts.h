// The measurement window's charts: the live page (latency per iteration, histogram, CDF with percentiles,
// bandwidth over time, latency and bandwidth against message size) and the CPU page, drawn from a session's
// runs. The live series are kept and updated in place, so a redraw allocates little.
#pragma once

#include "benchdata.h"

#include <QObject>

#include <memory>
#include <vector>

class QChartView;
class QWidget;

namespace rdmalab::app {

struct LiveCharts;

class BenchCharts : public QObject {
    Q_OBJECT
  public:
    static constexpr int kTimeSeriesPoints = 2000; ///< latency samples the scrolling chart keeps

    /// Builds both pages without a parent: the window's tabs take them.
    explicit BenchCharts(QObject* parent = nullptr);
    ~BenchCharts() override;

    QWidget* livePage() const { return livePage_; }
    QWidget* cpuPage() const { return cpuPage_; }

    /// The live charts: `shown` in the charts of its kind (latency or bandwidth), the latest run of the other
    /// kind in the others.
    void redrawLive(const std::vector<BenchRun>& runs, const BenchRun* shown);
    /// The finished runs against message size, and their CPU time per message measured on `device`.
    void redrawResults(const std::vector<BenchRun>& runs, const QString& device);

  private:
    void buildLivePage();
    void buildCpuPage();
    void buildLiveSeries();
    void redrawTimeSeries(const BenchRun* run);
    void redrawDistribution(const BenchRun* run);
    void redrawBandwidth(const BenchRun* run);
    void redrawSizeCharts(const std::vector<BenchRun>& runs);
    void redrawCpu(const std::vector<BenchRun>& runs, const QString& device);

    QWidget *livePage_ = nullptr, *cpuPage_ = nullptr;
    QChartView *timeSeriesView_ = nullptr, *histogramView_ = nullptr, *cdfView_ = nullptr,
               *bandwidthView_ = nullptr;
    QChartView *sizeLatencyView_ = nullptr, *sizeBandwidthView_ = nullptr, *cpuView_ = nullptr;
    std::unique_ptr<LiveCharts> live_; ///< the persistent series the live charts update in place
};

} // namespace rdmalab::app
