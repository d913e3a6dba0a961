// The main window's menus: File (open a recording, save the trace, export the window as PNG, quit), View
// (the panels, presentation mode, the language), Labs (the lab browser, the workbench) and Engine (where the
// engine runs, restart it, the VM's console log). The window answers their signals.
#pragma once

#include <QObject>

#include <array>

class QAction;
class QMainWindow;
class QMenu;

namespace rdmalab::app {

class EngineClient;

/// "fileMenu", "viewMenu" (with "panelsMenu" and "presentationAction"), "labsMenu" ("openLabsAction",
/// "openWorkbenchAction") and "engineMenu" ("engineHostAction", "vmConsoleAction").
class MainMenus : public QObject {
    Q_OBJECT
  public:
    /// A panel View ▸ Panels can hide, and the object name of its action.
    struct Panel {
        QWidget* widget;
        const char* actionName;
    };
    static constexpr int kPanelCount = 5; ///< devices, QP state, memory, timeline, inspector

    /// Adds the menus to `window`'s menu bar; `engine` says whether the VM's console log can be shown.
    MainMenus(QMainWindow* window, const EngineClient* engine);

    /// View ▸ Panels: every panel but the data path can be hidden, to give the picture a small screen. In
    /// this order: devices, QP state machine, memory, timeline, inspector.
    void addPanels(const std::array<Panel, kPanelCount>& panels);
    /// View ▸ Panels ▸ Devices (presentation mode hides the device list, and brings it back after).
    QAction* devicePanelAction() const { return panelActions_[0]; }
    /// View ▸ Presentation mode shows `on`.
    void setPresentationChecked(bool on);
    /// File ▸ Open recording… is refused while one is being read.
    void setOpenRecordingEnabled(bool enabled);
    /// The menus' texts in the current language (the window calls it on QEvent::LanguageChange).
    void retranslateUi();

  signals:
    void openRecordingRequested();
    void saveTraceRequested(const QString& path);
    void exportPngRequested(const QString& path);
    void presentationToggled(bool on);
    void labBrowserRequested();
    void workbenchRequested();
    void engineHostRequested();
    void restartEngineRequested();
    void vmConsoleRequested();

  private:
    void buildFileMenu();
    void buildViewMenu();
    void buildLabsMenu();
    void buildEngineMenu();
    /// Shows or hides `panel`; a splitter whose panels are all hidden goes too, so the data path gets its
    /// room.
    static void showPanel(QWidget* panel, bool on);

    QMainWindow* window_;
    const EngineClient* engine_;
    QMenu *fileMenu_ = nullptr, *viewMenu_ = nullptr, *labsMenu_ = nullptr, *engineMenu_ = nullptr,
          *panelsMenu_ = nullptr;
    QAction *openRecordingAction_ = nullptr, *saveTraceAction_ = nullptr, *exportPngAction_ = nullptr,
            *quitAction_ = nullptr, *presentationAction_ = nullptr, *openLabsAction_ = nullptr,
            *openWorkbenchAction_ = nullptr, *restartEngineAction_ = nullptr, *engineHostAction_ = nullptr,
            *vmConsoleAction_ = nullptr;
    std::array<QAction*, kPanelCount> panelActions_{};
};

} // namespace rdmalab::app
