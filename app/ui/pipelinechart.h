// The measurement window's pipeline page: for a run measured with every work request traced, the work
// requests in flight over time against the send-queue depth, and a caption with the pipeline's ratios and
// what tracing cost on the device (bench.pipeline events and the result's wr_trace).
#pragma once

#include "benchdata.h"

#include <QWidget>

class QAreaSeries;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace rdmalab::app {

class PipelineChart : public QWidget {
    Q_OBJECT
  public:
    explicit PipelineChart(QWidget* parent = nullptr);

    /// Draws `run`'s pipeline (null or without slices: says how to get one). `device` and
    /// `softwareDevice` name the session's device while the run has no result yet.
    void redraw(const BenchRun* run, const QString& device, bool softwareDevice);

    /// "rxe0 (SoftRoCE, software)" or "mlx5_0 (hardware)": every figure names its device.
    static QString deviceText(const QString& device, bool softwareDevice);
    /// The caption's first line: posts per doorbell, completions per poll, empty polls, signaling.
    static QString pipelineText(const BenchRun& run, const QString& device);
    /// The caption's second line: what tracing cost (traced against untraced), or that it comes at the end.
    static QString costText(const BenchRun& run, const QString& device);

  private:
    void buildChart();

    QLabel* explanation_ = nullptr; ///< shown when there is no pipeline to draw
    QChartView* view_ = nullptr;
    QLabel* caption_ = nullptr;
    QLineSeries *outstandingMax_ = nullptr, *outstandingEnd_ = nullptr, *depthLine_ = nullptr;
    QAreaSeries* outstandingMaxArea_ = nullptr; ///< drawn from outstandingMax_
    QValueAxis *timeAxis_ = nullptr, *countAxis_ = nullptr;
};

} // namespace rdmalab::app
