// The projector layout of a window (F5, --present): for a class in front of a 1280x720 projector. The
// picture takes the whole window, drawn so large that its smallest text is kProjectorTextPixels high and
// following what each step moves (zoom and pan by hand too); a headline says the step, a one-line caption
// the call that was just shown; a window's question (the lab's prediction) is shown large under the picture
// before the step runs, so that the class votes. Step, Back and Play are keys (Space / Right / Page Down,
// Left / Page Up / Backspace, P); everything else is one key away: F5 or Escape gives the window back as
// it was. The look (font, palette) is windowparts' applyPresentationLook; the picture's, LabStage's.
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <initializer_list>
#include <vector>

class QAction;
class QBoxLayout;
class QMenu;
class QLabel;
class QMainWindow;
class QWidget;

namespace rdmalab::app {

class DataPathView;
class LabStage;

/// The smallest text of the picture on a projector, in screen pixels (legible from the back of a room).
inline constexpr int kProjectorTextPixels = 18;

/// Where a widget lent to the projector page came from, to be put back there.
struct WidgetPlace {
    QPointer<QWidget> widget;
    QPointer<QWidget> parent;
    QPointer<QBoxLayout> box; ///< the layout it was in (perhaps nested in its parent's)
    int index = -1;
    int stretch = 0;
    QString tabText;
    QList<int> splitterSizes;
    bool visible = true;
};

/// A key's action that clicks `window`'s button named `objectName` when it is enabled (as a click would).
std::function<void()> clickWhenEnabled(QWidget* window, const QString& objectName);

class ProjectorLayout : public QObject {
    Q_OBJECT
  public:
    /// What the keys do; an empty function: the key does nothing in this window.
    struct Keys {
        std::function<void()> step, back, play;
    };
    /// `stage`: the window's stage, whose picture the projector shows.
    ProjectorLayout(QMainWindow* window, LabStage* stage, Keys keys);
    ~ProjectorLayout() override;

    /// A widget shown under the picture while the projector layout is on (when it is visible: the lab
    /// window's prediction, only while a question waits), taken from its place and given back on leaving.
    void showBelowPicture(QWidget* widget);

    bool isOn() const { return on_; }
    /// Arranges the window for a projector (`on`; the presentation look too), or as it was before; false
    /// when it already is so.
    bool set(bool on);
    /// Adds View ▸ Projector layout (F5, checkable) to `menu`, for a window whose menus have none.
    QAction* addAction(QMenu* menu);
    /// The page shown while on ("projectorPage"; its headline "projectorHeadline", caption
    /// "projectorCaption").
    QWidget* page() const { return page_; }

  signals:
    /// The layout was turned on or off (F5, Escape, set()).
    void changed(bool on);

  private:
    void retranslate();
    void refreshHeadline();
    /// The headline and the caption elided to their widths.
    void elide();
    bool eventFilter(QObject* watched, QEvent* event) override;

    QMainWindow* window_;
    LabStage* stage_;
    DataPathView* picture_;
    Keys keys_;
    bool on_ = false;
    QWidget* page_ = nullptr;
    QWidget* below_ = nullptr; ///< the page's room under the picture
    QLabel *headline_ = nullptr, *caption_ = nullptr, *keyHelp_ = nullptr;
    QPointer<QWidget> central_; ///< the window's own central widget, kept while the page replaces it
    WidgetPlace picturePlace_;
    std::vector<QPointer<QWidget>> belowWidgets_;
    std::vector<WidgetPlace> belowPlaces_;
    std::vector<std::pair<QPointer<QWidget>, bool>> hidden_; ///< bars hidden while on, and were they shown
    qreal zoomBefore_ = 1;
    QAction* action_ = nullptr;
};

} // namespace rdmalab::app
