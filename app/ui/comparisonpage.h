// TCP next to RDMA: the measured figures with the data path behind each, reference figures from the
// literature kept apart from them, and the serialization-time floor of a transfer. Only displays
// BenchRun data it is given; it never runs a measurement.
#pragma once

#include "benchdata.h"

#include <QWidget>

#include <vector>

class QGroupBox;
class QLabel;
class QTableWidget;

namespace rdmalab::app {

class PhysicsFloorBox;

class ComparisonPage : public QWidget {
    Q_OBJECT
  public:
    explicit ComparisonPage(QWidget* parent = nullptr);

    /// Shows these runs (only finished ones have figures to show).
    void setRuns(const std::vector<BenchRun>& runs);
    /// "en" or "zh" (Simplified Chinese); anything else means English.
    void setLanguage(const QString& lang);
    QString language() const { return language_; }

  private:
    /// The title, the device line and the software-device note.
    void buildHeader();
    /// The measured figures: two rows per finished run, its figures and its data path.
    void buildMeasuredBox();
    /// The literature's figures, in a box of their own.
    void buildLiteratureBox();
    QString tx(const QString& english, const QString& chinese) const;
    void retranslate();
    void fillDeviceLabels();
    void fillComparisonTable();
    void fillLiteratureTable();
    /// Row heights follow word-wrapped text; done once after the current event, however often asked.
    void scheduleRowLayout();
    void layoutRows();

    QString kindDescription(const BenchRun& run) const;
    QString dataPathText(const BenchRun& run) const;
    QString relativeToTcpText(const BenchRun& run) const;

    std::vector<BenchRun> runs_;
    QString language_ = QStringLiteral("en");
    bool rowLayoutPending_ = false;

    QLabel* titleLabel_ = nullptr;
    QLabel* deviceLabel_ = nullptr;
    QLabel* softwareDeviceLabel_ = nullptr;
    QGroupBox* measuredBox_ = nullptr;
    QTableWidget* comparisonTable_ = nullptr;
    QGroupBox* literatureBox_ = nullptr;
    QLabel* literatureNote_ = nullptr;
    QTableWidget* literatureTable_ = nullptr;
    PhysicsFloorBox* physicsBox_ = nullptr; ///< the serialization-time floor against what was measured
};

} // namespace rdmalab::app
