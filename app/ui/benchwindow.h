// The measurement window: runs `bench` on the engine process and draws its figures live (latency per
// iteration, histogram, CDF with percentiles, bandwidth over time, latency and bandwidth against message
// size, CPU per message: BenchCharts), next to a TCP-versus-RDMA comparison page and the pipeline of a run
// with every work request traced (PipelineChart). Charts redraw on a
// single-shot timer at most every kRedrawIntervalMs, however fast samples arrive.
#pragma once

#include "benchsession.h"
#include "headlessrun.h"
#include "recordingreader.h"

#include <QMainWindow>
#include <QTimer>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace rdmalab::app {

class Banner;
class BenchCharts;
class ComparisonPage;
class PipelineChart;

struct BenchStartOptions {
    QStringList kinds;         ///< empty: nothing starts until Run is pressed
    std::vector<qint64> sizes; ///< default {2}
    bool sweep = false;
    qint64 maxSize = 0;
    int iters = 1000;
    double seconds = 0;
    QString device;
    QList<int> cpus;       ///< pin endpoint A and B to these CPUs (empty: not pinned)
    bool traceWr = false;  ///< trace every work request (bench.start's trace_wr): the pipeline page
    QString tab;           ///< "live", "cpu", "compare" or "pipeline" to show first
    bool autoplay = false; ///< start at once
    QString screenshot;    ///< PNG of the window when the measurement ends
    QString exportPath;    ///< results as .json or .csv when it ends
    bool quitWhenDone = false;
    QString replayFile; ///< open a recorded measurement trace instead of measuring
    QString language = "en";
    QString engineProgram;
};

class BenchWindow : public QMainWindow {
    Q_OBJECT
  public:
    static constexpr int kRedrawIntervalMs = 40;
    static constexpr int kAutoplayStartDelayMs = 1000;

    explicit BenchWindow(const BenchStartOptions& options, QWidget* parent = nullptr);
    ~BenchWindow() override;

    BenchSession* session() { return session_; }
    EngineClient* engine() { return engine_; }
    /// Exit status of a headless run (0: measured, screenshot and export written).
    int headlessStatus() const { return headless_->status(); }
    /// Number of chart redraws so far (tests check the batching).
    int redrawCount() const { return redrawCount_; }

    /// Kinds the "compare" preset measures: TCP next to each RDMA operation.
    static QStringList comparisonKinds();

  public slots:
    void startMeasurement();
    /// Reads the recording on a thread of its own, then shows it (the Open button waits meanwhile).
    void openRecording(const QString& path);

  private:
    void buildUi();
    void buildToolBar();
    void buildTabs();
    void scheduleRedraw();
    void redraw();
    void refreshTable();
    void refreshHeader();
    void refreshControls();
    const BenchRun* shownRun() const;
    void onFinished(bool ok, const QString& error);
    void onEngineDied(const QString& message);
    void exportResults(const QString& path);
    void exportCharts(const QString& path);
    void autosave();
    void finishHeadless(bool ok);

    BenchStartOptions options_;
    EngineClient* engine_;
    BenchSession* session_;
    HeadlessRun* headless_; ///< how an --autoplay / --quit run ends (status 1 until it does)
    QTimer redrawTimer_;
    int redrawCount_ = 0;
    int selectedRun_ = -1; ///< -1: follow the run being measured

    // The toolbar: what to measure, and the buttons.
    QComboBox *kindCombo_ = nullptr, *sizeCombo_ = nullptr;
    QCheckBox *sweepCheck_ = nullptr, *traceWrCheck_ = nullptr;
    QSpinBox* itersSpin_ = nullptr;
    QPushButton *runButton_ = nullptr, *stopButton_ = nullptr, *exportButton_ = nullptr;
    QPushButton* openButton_ = nullptr;
    RecordingReader* reader_ = new RecordingReader(this); ///< opens recordings off the GUI thread
    void showRecording(RecordingReader::Result& result);
    // Above the charts: the engine banner (engineMessage, restartEngineButton), the autosave warning, the
    // device and the shown run's statistics; the status bar.
    Banner* engineBanner_ = nullptr;
    QPushButton* restartButton_ = nullptr;
    QLabel *autosaveWarning_ = nullptr, *deviceLabel_ = nullptr, *statsLabel_ = nullptr,
           *statusLabel_ = nullptr;
    // The pages and the runs table.
    QTabWidget* tabs_ = nullptr;
    BenchCharts* charts_ = nullptr; ///< the live and CPU pages
    ComparisonPage* comparison_ = nullptr;
    PipelineChart* pipeline_ = nullptr; ///< runs measured with every work request traced
    QTableWidget* runsTable_ = nullptr;
    bool resultsChanged_ = true; ///< a run finished since the size/CPU charts were drawn
};

} // namespace rdmalab::app
