// What presentation mode changes in the main window's arrangement, and gives back on leaving: the whole
// screen (on a real screen), the device panel hidden, three quarters of the height to the picture; and
// Escape to leave it. The look (font, palette) is windowparts' applyPresentationLook.
#pragma once

#include <QList>
#include <QObject>

class QAction;
class QMainWindow;
class QSplitter;

namespace rdmalab::app {

class PresentationLayout : public QObject {
    Q_OBJECT
  public:
    /// `devicePanel`: View ▸ Panels ▸ Devices; `split`: the picture above the timeline.
    PresentationLayout(QMainWindow* window, QAction* devicePanel, QSplitter* split);

    bool isOn() const { return on_; }
    /// Arranges the window for a projector (`on`), or as it was before; false when it already is so.
    bool set(bool on);

  signals:
    /// Escape was pressed in presentation mode.
    void leaveRequested();

  private:
    QMainWindow* window_;
    QAction* devicePanel_;
    QSplitter* split_;
    bool on_ = false;
    bool devicePanelBefore_ = true; ///< View ▸ Panels ▸ Devices before presentation mode hid it
    QList<int> splitBefore_;        ///< the picture/timeline split before presentation mode
};

} // namespace rdmalab::app
