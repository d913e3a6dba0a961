// The menus of the main window.
#include "mainmenus.h"

#include "engineclient.h"
#include "language.h"

#include <QAction>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>

namespace rdmalab::app {

MainMenus::MainMenus(QMainWindow* window, const EngineClient* engine)
    : QObject(window), window_(window), engine_(engine) {
    buildFileMenu();
    buildViewMenu();
    buildLabsMenu();
    buildEngineMenu();
}

void MainMenus::buildFileMenu() {
    fileMenu_ = window_->menuBar()->addMenu(QString());
    fileMenu_->setObjectName("fileMenu");
    openRecordingAction_ =
        fileMenu_->addAction(QString(), QKeySequence::Open, this, &MainMenus::openRecordingRequested);
    saveTraceAction_ = fileMenu_->addAction(QString(), QKeySequence::Save, this, [this] {
        const QString path = QFileDialog::getSaveFileName(window_, tr("Save trace"), "rdmalab-trace.jsonl",
                                                          tr("Traces (*.jsonl)"));
        if (!path.isEmpty()) emit saveTraceRequested(path);
    });
    exportPngAction_ = fileMenu_->addAction(QString(), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(window_, tr("Export PNG"), "rdmalab.png", tr("PNG (*.png)"));
        if (!path.isEmpty()) emit exportPngRequested(path);
    });
    fileMenu_->addSeparator();
    quitAction_ = fileMenu_->addAction(QString(), QKeySequence::Quit, window_, &QWidget::close);
}

void MainMenus::buildViewMenu() {
    viewMenu_ = window_->menuBar()->addMenu(QString());
    viewMenu_->setObjectName("viewMenu");
    presentationAction_ = viewMenu_->addAction(QString());
    presentationAction_->setObjectName("presentationAction");
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(Qt::Key_F5);
    window_->addAction(presentationAction_); // F5 also with the menu bar hidden (the projector layout)
    connect(presentationAction_, &QAction::toggled, this, &MainMenus::presentationToggled);
    Language::instance()->addMenu(viewMenu_);
}

void MainMenus::buildLabsMenu() {
    labsMenu_ = window_->menuBar()->addMenu(QString());
    labsMenu_->setObjectName("labsMenu");
    openLabsAction_ = labsMenu_->addAction(QString(), this, &MainMenus::labBrowserRequested);
    openLabsAction_->setObjectName("openLabsAction");
    openLabsAction_->setShortcut(Qt::CTRL | Qt::Key_L);
    openWorkbenchAction_ = labsMenu_->addAction(QString(), this, &MainMenus::workbenchRequested);
    openWorkbenchAction_->setObjectName("openWorkbenchAction");
    openWorkbenchAction_->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_W);
}

void MainMenus::buildEngineMenu() {
    engineMenu_ = window_->menuBar()->addMenu(QString());
    engineMenu_->setObjectName("engineMenu");
    engineHostAction_ = engineMenu_->addAction(QString(), this, &MainMenus::engineHostRequested);
    engineHostAction_->setObjectName("engineHostAction");
    restartEngineAction_ = engineMenu_->addAction(QString(), this, &MainMenus::restartEngineRequested);
    vmConsoleAction_ = engineMenu_->addAction(QString(), this, &MainMenus::vmConsoleRequested);
    vmConsoleAction_->setObjectName("vmConsoleAction");
    connect(engineMenu_, &QMenu::aboutToShow, this,
            [this] { vmConsoleAction_->setEnabled(engine_->host() == EngineHost::Vm); });
}

void MainMenus::addPanels(const std::array<Panel, kPanelCount>& panels) {
    panelsMenu_ = new QMenu(window_);
    panelsMenu_->setObjectName("panelsMenu");
    viewMenu_->insertMenu(presentationAction_, panelsMenu_);
    viewMenu_->insertSeparator(presentationAction_);
    for (std::size_t i = 0; i < panels.size(); ++i) {
        auto* action = panelActions_[i] = panelsMenu_->addAction(QString());
        action->setObjectName(panels[i].actionName);
        action->setCheckable(true);
        action->setChecked(true);
        QWidget* panel = panels[i].widget;
        connect(action, &QAction::toggled, this, [panel](bool on) { showPanel(panel, on); });
    }
}

void MainMenus::showPanel(QWidget* panel, bool on) {
    panel->setVisible(on);
    if (auto* splitter = qobject_cast<QSplitter*>(panel->parentWidget())) {
        bool any = false;
        for (int i = 0; i < splitter->count(); ++i)
            any = any || !splitter->widget(i)->isHidden();
        splitter->setVisible(any);
    }
}

void MainMenus::setPresentationChecked(bool on) {
    if (presentationAction_->isChecked() != on) presentationAction_->setChecked(on);
}

void MainMenus::setOpenRecordingEnabled(bool enabled) {
    openRecordingAction_->setEnabled(enabled);
}

void MainMenus::retranslateUi() {
    fileMenu_->setTitle(tr("&File"));
    openRecordingAction_->setText(tr("&Open recording…"));
    saveTraceAction_->setText(tr("&Save trace…"));
    exportPngAction_->setText(tr("&Export view as PNG…"));
    quitAction_->setText(tr("&Quit"));
    viewMenu_->setTitle(tr("&View"));
    presentationAction_->setText(tr("&Projector layout (the picture full screen, large, high contrast)"));
    if (panelsMenu_) {
        panelsMenu_->setTitle(tr("P&anels"));
        const QString panelTexts[kPanelCount] = {tr("&Devices"), tr("&QP state machine"), tr("&Memory"),
                                                 tr("&Timeline"), tr("&Inspector")};
        for (int i = 0; i < kPanelCount; ++i)
            panelActions_[static_cast<std::size_t>(i)]->setText(panelTexts[i]);
    }
    labsMenu_->setTitle(tr("&Labs"));
    openLabsAction_->setText(tr("&Lab browser…"));
    openWorkbenchAction_->setText(tr("&Workbench…"));
    engineMenu_->setTitle(tr("&Engine"));
    restartEngineAction_->setText(tr("&Restart engine"));
    engineHostAction_->setText(tr("&Where the engine runs…"));
    vmConsoleAction_->setText(tr("The VM's &console log"));
}

} // namespace rdmalab::app
