// Test drivers for the app's windows: each names the children of one kind of window (object name and
// type) once, so a test reads `mainWindow(window).engineHostLabel()` instead of a findChild with a string
// and a type. A method is named as the object it finds; it looks the child up when called (windows make
// some children later, and a test may ask before and after), and returns nullptr when there is none.
#pragma once

#include "datapath/datapathview.h"
#include "labstage/labstage.h"
#include "memoryview.h"
#include "qpstateview.h"

#include <QAbstractButton>
#include <QAction>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QWidget>

namespace rdmalab::test {

/// Finds children of a window by object name.
class WindowDriver {
  public:
    explicit WindowDriver(const QObject& window) : window_(&window) {}

  protected:
    template <typename T> T* find(const QString& name) const { return window_->findChild<T*>(name); }

  private:
    const QObject* window_;
};

/// What every window has (app/ui/windowparts.cpp, language.cpp, labstage/): the engine's banner, the
/// autosave warning, the language menu and the stage with its views.
class WindowPartsDriver : public WindowDriver {
  public:
    using WindowDriver::WindowDriver;
    QWidget* engineBanner() const { return find<QWidget>(QStringLiteral("engineBanner")); }
    QLabel* engineMessage() const { return find<QLabel>(QStringLiteral("engineMessage")); }
    QPushButton* restartEngineButton() const {
        return find<QPushButton>(QStringLiteral("restartEngineButton"));
    }
    QLabel* autosaveWarning() const { return find<QLabel>(QStringLiteral("autosaveWarning")); }
    QMenu* languageMenu() const { return find<QMenu>(QStringLiteral("languageMenu")); }
    QAction* languageChineseAction() const { return find<QAction>(QStringLiteral("languageChineseAction")); }
    app::LabStage* labStage() const { return find<app::LabStage>(QStringLiteral("labStage")); }
    QTabWidget* labPictures() const { return find<QTabWidget>(QStringLiteral("labPictures")); }
    app::DataPathView* dataPathView() const {
        return find<app::DataPathView>(QStringLiteral("dataPathView"));
    }
    app::QpStateView* qpStateView() const { return find<app::QpStateView>(QStringLiteral("qpStateView")); }
    app::MemoryView* memoryView() const { return find<app::MemoryView>(QStringLiteral("memoryView")); }
};
inline WindowPartsDriver windowParts(const QObject& window) {
    return WindowPartsDriver(window);
}

/// The main window (app/ui/mainwindow.cpp): its lesson bar, timeline, device panel and recovery banner.
class MainWindowDriver : public WindowDriver {
  public:
    using WindowDriver::WindowDriver;
    QComboBox* lessonCombo() const { return find<QComboBox>(QStringLiteral("lessonCombo")); }
    QPushButton* stepButton() const { return find<QPushButton>(QStringLiteral("stepButton")); }
    QPushButton* resetButton() const { return find<QPushButton>(QStringLiteral("resetButton")); }
    QPushButton* backButton() const { return find<QPushButton>(QStringLiteral("backButton")); }
    QPushButton* skipToEndButton() const { return find<QPushButton>(QStringLiteral("skipToEndButton")); }
    QProgressBar* openProgress() const { return find<QProgressBar>(QStringLiteral("openProgress")); }
    QToolButton* cancelOpenButton() const { return find<QToolButton>(QStringLiteral("cancelOpenButton")); }
    QLabel* stepLabel() const { return find<QLabel>(QStringLiteral("stepLabel")); }
    QLabel* sessionLabel() const { return find<QLabel>(QStringLiteral("sessionLabel")); }
    QLabel* engineHostLabel() const { return find<QLabel>(QStringLiteral("engineHostLabel")); }
    QAction* engineHostAction() const { return find<QAction>(QStringLiteral("engineHostAction")); }
    QAction* showDevicePanelAction() const { return find<QAction>(QStringLiteral("showDevicePanelAction")); }
    QAction* vmConsoleAction() const { return find<QAction>(QStringLiteral("vmConsoleAction")); }
    QTextBrowser* inspector() const { return find<QTextBrowser>(QStringLiteral("inspector")); }
    QTableView* timelineView() const { return find<QTableView>(QStringLiteral("timelineView")); }
    QWidget* devicePanel() const { return find<QWidget>(QStringLiteral("devicePanel")); }
    QPushButton* openRecordingButton() const {
        return find<QPushButton>(QStringLiteral("openRecordingButton"));
    }
    QPushButton* createSoftRoceButton() const {
        return find<QPushButton>(QStringLiteral("createSoftRoceButton"));
    }
    QMessageBox* softRoceConfirm() const { return find<QMessageBox>(QStringLiteral("softRoceConfirm")); }
    QLabel* softRoceResult() const { return find<QLabel>(QStringLiteral("softRoceResult")); }
    QWidget* recoveryBanner() const { return find<QWidget>(QStringLiteral("recoveryBanner")); }
    QLabel* recoveryMessage() const { return find<QLabel>(QStringLiteral("recoveryMessage")); }
    QPushButton* reopenSessionButton() const {
        return find<QPushButton>(QStringLiteral("reopenSessionButton"));
    }
    QPushButton* dismissSessionButton() const {
        return find<QPushButton>(QStringLiteral("dismissSessionButton"));
    }
};
inline MainWindowDriver mainWindow(const QObject& window) {
    return MainWindowDriver(window);
}

/// The lab window and the lab browser (app/ui/labwindow.cpp, labpanels.cpp, labquiz.cpp): a lab's
/// controls, its verdicts and errors, its predictions and questions.
class LabWindowDriver : public WindowDriver {
  public:
    using WindowDriver::WindowDriver;
    QTreeView* labTree() const { return find<QTreeView>(QStringLiteral("labTree")); }
    QLabel* labHeader() const { return find<QLabel>(QStringLiteral("labHeader")); }
    QPushButton* labStart() const { return find<QPushButton>(QStringLiteral("labStart")); }
    QPushButton* labStep() const { return find<QPushButton>(QStringLiteral("labStep")); }
    QPushButton* labPlay() const { return find<QPushButton>(QStringLiteral("labPlay")); }
    QLabel* labStatus() const { return find<QLabel>(QStringLiteral("labStatus")); }
    QCheckBox* labTeacherMode() const { return find<QCheckBox>(QStringLiteral("labTeacherMode")); }
    QTreeWidget* labVerdicts() const { return find<QTreeWidget>(QStringLiteral("labVerdicts")); }
    QLabel* labErrors() const { return find<QLabel>(QStringLiteral("labErrors")); }
    QListWidget* labErrorList() const { return find<QListWidget>(QStringLiteral("labErrorList")); }
    QWidget* labPredict() const { return find<QWidget>(QStringLiteral("labPredict")); }
    QLabel* labPredictQuestion() const { return find<QLabel>(QStringLiteral("labPredictQuestion")); }
    QLabel* labPredictResult() const { return find<QLabel>(QStringLiteral("labPredictResult")); }
    /// The prediction's choice for the outcome `value` ("success", "rem_access_err", "none", an errno).
    QAbstractButton* labPredictChoice(const QString& value) const {
        return find<QAbstractButton>(QStringLiteral("labPredictChoice_") + value);
    }
    QPushButton* labLockIn() const { return find<QPushButton>(QStringLiteral("labLockIn")); }
    QScrollArea* labQuestions() const { return find<QScrollArea>(QStringLiteral("labQuestions")); }
    /// Question `question`'s choice `choice`, its Check button and its result (both counted from 1).
    QAbstractButton* labQuestionChoice(int question, int choice) const {
        return find<QAbstractButton>(QStringLiteral("labQuestion%1Choice%2").arg(question).arg(choice));
    }
    QPushButton* labQuestionCheck(int question) const {
        return find<QPushButton>(QStringLiteral("labQuestion%1Check").arg(question));
    }
    QLabel* labQuestionResult(int question) const {
        return find<QLabel>(QStringLiteral("labQuestion%1Result").arg(question));
    }
    /// The field of the lab's parameter `name`.
    QLineEdit* labParameter(const QString& name) const {
        return find<QLineEdit>(QStringLiteral("labParameter_") + name);
    }
};
inline LabWindowDriver labWindow(const QObject& window) {
    return LabWindowDriver(window);
}

/// The workbench (app/ui/workbenchwindow.cpp, workbenchcontrols.cpp): its controls, snapshot and task.
class WorkbenchDriver : public WindowDriver {
  public:
    using WindowDriver::WindowDriver;
    QPushButton* buildPair() const { return find<QPushButton>(QStringLiteral("buildPair")); }
    QComboBox* opcode() const { return find<QComboBox>(QStringLiteral("opcode")); }
    QPushButton* postSend() const { return find<QPushButton>(QStringLiteral("postSend")); }
    QComboBox* recvSide() const { return find<QComboBox>(QStringLiteral("recvSide")); }
    QPushButton* postRecv() const { return find<QPushButton>(QStringLiteral("postRecv")); }
    QPushButton* pollCq() const { return find<QPushButton>(QStringLiteral("pollCq")); }
    QComboBox* qpSide() const { return find<QComboBox>(QStringLiteral("qpSide")); }
    QComboBox* qpTarget() const { return find<QComboBox>(QStringLiteral("qpTarget")); }
    QPushButton* moveQp() const { return find<QPushButton>(QStringLiteral("moveQp")); }
    QPushButton* resetAll() const { return find<QPushButton>(QStringLiteral("resetAll")); }
    /// The check box of access right `right` ("remote_write", ...) for side `side` ("A" or "B").
    QCheckBox* access(const QString& side, const QString& right) const {
        return find<QCheckBox>(QStringLiteral("access") + side + QLatin1Char('_') + right);
    }
    QLabel* workbenchStatus() const { return find<QLabel>(QStringLiteral("workbenchStatus")); }
    QLabel* workbenchSnapshot() const { return find<QLabel>(QStringLiteral("workbenchSnapshot")); }
    QLabel* workbenchTaskText() const { return find<QLabel>(QStringLiteral("workbenchTaskText")); }
    QPushButton* workbenchCheck() const { return find<QPushButton>(QStringLiteral("workbenchCheck")); }
    QLabel* workbenchCheckResult() const { return find<QLabel>(QStringLiteral("workbenchCheckResult")); }
    QPushButton* workbenchSetUpAgain() const {
        return find<QPushButton>(QStringLiteral("workbenchSetUpAgain"));
    }
    QPushButton* workbenchApplySolution() const {
        return find<QPushButton>(QStringLiteral("workbenchApplySolution"));
    }
};
inline WorkbenchDriver workbench(const QObject& window) {
    return WorkbenchDriver(window);
}

/// The benchmark window and its comparison page (app/ui/benchwindow.cpp, comparisonpage.cpp).
class BenchWindowDriver : public WindowDriver {
  public:
    using WindowDriver::WindowDriver;
    QPushButton* runButton() const { return find<QPushButton>(QStringLiteral("runButton")); }
    QTabWidget* benchTabs() const { return find<QTabWidget>(QStringLiteral("benchTabs")); }
    QLabel* deviceLabel() const { return find<QLabel>(QStringLiteral("deviceLabel")); }
    QLabel* statsLabel() const { return find<QLabel>(QStringLiteral("statsLabel")); }
    QTableWidget* runsTable() const { return find<QTableWidget>(QStringLiteral("runsTable")); }
    QChartView* timeSeriesChart() const { return find<QChartView>(QStringLiteral("timeSeriesChart")); }
    QChartView* sizeLatencyChart() const { return find<QChartView>(QStringLiteral("sizeLatencyChart")); }
    QLabel* softwareDeviceLabel() const { return find<QLabel>(QStringLiteral("softwareDeviceLabel")); }
    QTableWidget* comparisonTable() const { return find<QTableWidget>(QStringLiteral("comparisonTable")); }
    QGroupBox* literatureBox() const { return find<QGroupBox>(QStringLiteral("literatureBox")); }
    QTableWidget* literatureTable() const { return find<QTableWidget>(QStringLiteral("literatureTable")); }
    QComboBox* physicsRate() const { return find<QComboBox>(QStringLiteral("physicsRate")); }
    QDoubleSpinBox* physicsSize() const { return find<QDoubleSpinBox>(QStringLiteral("physicsSize")); }
    QComboBox* physicsSizeUnit() const { return find<QComboBox>(QStringLiteral("physicsSizeUnit")); }
    QLabel* physicsMeasured() const { return find<QLabel>(QStringLiteral("physicsMeasured")); }
    QLabel* physicsFloorResult() const { return find<QLabel>(QStringLiteral("physicsFloorResult")); }
    QLabel* physicsFloorNote() const { return find<QLabel>(QStringLiteral("physicsFloorNote")); }
    QChartView* physicsChart() const { return find<QChartView>(QStringLiteral("physicsChart")); }
};
inline BenchWindowDriver benchWindow(const QObject& window) {
    return BenchWindowDriver(window);
}

} // namespace rdmalab::test
