// Presentation mode's arrangement of the main window (see presentationlayout.h).
#include "presentationlayout.h"

#include "windowparts.h"

#include <QAction>
#include <QMainWindow>
#include <QShortcut>
#include <QSplitter>

namespace rdmalab::app {

PresentationLayout::PresentationLayout(QMainWindow* window, QAction* devicePanel, QSplitter* split)
    : QObject(window), window_(window), devicePanel_(devicePanel), split_(split) {
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    connect(leave, &QShortcut::activated, this, [this] {
        if (on_) emit leaveRequested();
    });
}

bool PresentationLayout::set(bool on) {
    if (on == on_) return false;
    on_ = on;
    // A projector gets the whole screen, and the data path the room of the device list (View ▸ Panels
    // brings it back; leaving restores it as it was).
    if (on) {
        devicePanelBefore_ = devicePanel_->isChecked();
        devicePanel_->setChecked(false);
        // The picture is what the room looks at: three quarters of the height (the timeline keeps a few
        // rows).
        splitBefore_ = split_->sizes();
        const int total = splitBefore_.value(0) + splitBefore_.value(1);
        split_->setSizes({total * 3 / 4, total - total * 3 / 4});
        if (realScreen(window_)) // headless: as sized
            window_->setWindowState(window_->windowState() | Qt::WindowFullScreen);
    } else {
        devicePanel_->setChecked(devicePanelBefore_);
        if (!splitBefore_.isEmpty()) split_->setSizes(splitBefore_);
        window_->setWindowState(window_->windowState() & ~Qt::WindowFullScreen);
    }
    return true;
}

} // namespace rdmalab::app
