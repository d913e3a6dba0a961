// The comparison page's physics floor: a link rate and a transfer size, the serialization time of that
// transfer (bytes × 8 ÷ rate), and a chart of it against the time the measured runs would take. Bilingual
// by its own texts, as the comparison page is.
#pragma once

#include "benchdata.h"

#include <QGroupBox>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace rdmalab::app {

class PhysicsFloorBox : public QGroupBox {
    Q_OBJECT
  public:
    explicit PhysicsFloorBox(QWidget* parent = nullptr);

    /// The runs the measured times are estimated from.
    void setRuns(const std::vector<BenchRun>& runs);
    /// "zh" (Simplified Chinese) or "en"; the page has checked the value.
    void setLanguage(const QString& lang);

  private:
    void buildChart();
    QString tx(const QString& english, const QString& chinese) const;
    void retranslate();
    void refresh();
    /// What each measured transport would take for `bytes`, a line each, and their bars after the floor's.
    struct Bar {
        QString name;
        double seconds;
    };
    QStringList measuredLines(double bytes, double floorSeconds, std::vector<Bar>& bars) const;
    /// The bars on a logarithmic time axis, in one category named `sizeText`.
    void drawBars(const std::vector<Bar>& bars, const QString& sizeText);

    std::vector<BenchRun> runs_;
    QString language_ = QStringLiteral("en");

    QLabel* rateLabel_ = nullptr;
    QLabel* sizeLabel_ = nullptr;
    QComboBox* rateCombo_ = nullptr;
    QDoubleSpinBox* sizeSpin_ = nullptr;
    QComboBox* sizeUnitCombo_ = nullptr;
    QLabel* floorResultLabel_ = nullptr;
    QLabel* floorNoteLabel_ = nullptr;
    QLabel* measuredTimeLabel_ = nullptr;
    QChartView* chartView_ = nullptr;
    QChart* chart_ = nullptr;
};

} // namespace rdmalab::app
