// The projector layout of a window (see projectorlayout.h).
#include "projectorlayout.h"

#include "datapath/datapathview.h"
#include "labstage/labstage.h"
#include "windowparts.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QBoxLayout>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace rdmalab::app {

namespace {

/// The box layout, in `root` or nested in it, that holds `widget`.
QBoxLayout* boxHolding(QLayout* root, QWidget* widget) {
    if (!root) return nullptr;
    if (auto* box = qobject_cast<QBoxLayout*>(root); box && box->indexOf(widget) >= 0) return box;
    for (int i = 0; i < root->count(); ++i)
        if (QLayout* inner = root->itemAt(i)->layout())
            if (QBoxLayout* found = boxHolding(inner, widget)) return found;
    return nullptr;
}

/// Takes `widget` out of its place (a box layout, a splitter or a tab page) and says where it was.
WidgetPlace takeFromPlace(QWidget* widget) {
    WidgetPlace place;
    place.widget = widget;
    place.parent = widget->parentWidget();
    place.visible = !widget->isHidden();
    if (auto* splitter = qobject_cast<QSplitter*>(place.parent.data())) {
        place.index = splitter->indexOf(widget);
        place.splitterSizes = splitter->sizes();
    } else if (auto* tabs =
                   place.parent ? qobject_cast<QTabWidget*>(place.parent->parentWidget()) : nullptr) {
        place.parent = tabs; // the page sits in the tab widget's stack
        place.index = tabs->indexOf(widget);
        place.tabText = tabs->tabText(place.index);
        if (place.index >= 0) tabs->removeTab(place.index);
    } else if (QBoxLayout* box = place.parent ? boxHolding(place.parent->layout(), widget) : nullptr) {
        place.box = box;
        place.index = box->indexOf(widget);
        place.stretch = box->stretch(place.index);
    }
    widget->setParent(nullptr);
    return place;
}

/// Puts a widget back where takeFromPlace found it.
void putBack(const WidgetPlace& place) {
    QWidget* widget = place.widget;
    if (!widget) return;
    if (auto* splitter = qobject_cast<QSplitter*>(place.parent.data())) {
        splitter->insertWidget(place.index, widget);
        splitter->setSizes(place.splitterSizes);
    } else if (auto* tabs = qobject_cast<QTabWidget*>(place.parent.data())) {
        tabs->insertTab(place.index, widget, place.tabText);
        tabs->setCurrentIndex(place.index);
    } else if (place.box) {
        place.box->insertWidget(place.index, widget, place.stretch);
    } else {
        widget->setParent(place.parent);
    }
    widget->setVisible(place.visible);
}

QFont headlineFont(int px, bool bold) {
    QFont f = QApplication::font();
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

} // namespace

std::function<void()> clickWhenEnabled(QWidget* window, const QString& objectName) {
    return [window = QPointer<QWidget>(window), objectName] {
        if (!window) return;
        if (auto* button = window->findChild<QAbstractButton*>(objectName); button && button->isEnabled())
            button->click();
    };
}

ProjectorLayout::ProjectorLayout(QMainWindow* window, LabStage* stage, Keys keys)
    : QObject(window), window_(window), stage_(stage), picture_(stage->dataPath()), keys_(std::move(keys)) {
    page_ = new QWidget(window); // hidden until on: the window's central widget then
    page_->setObjectName(QStringLiteral("projectorPage"));
    auto* layout = new QVBoxLayout(page_);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(4);
    headline_ = new QLabel;
    headline_->setObjectName(QStringLiteral("projectorHeadline"));
    headline_->setTextFormat(Qt::PlainText);
    headline_->setMinimumWidth(1); // elided to the width it gets, never widening the page
    layout->addWidget(headline_);
    // The picture goes at index 1 when the layout is on.
    below_ = new QWidget;
    below_->setObjectName(QStringLiteral("projectorBelow"));
    auto* belowLayout = new QVBoxLayout(below_);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    // On black, the style draws a choice's circle and box in black: the class must see what is ticked.
    // (Only below the picture: a style sheet freezes the palette its widgets had when polished.)
    below_->setStyleSheet(QStringLiteral(
        "QRadioButton::indicator, QCheckBox::indicator { width: 18px; height: 18px; border: 2px solid white;"
        " background: black; }"
        "QRadioButton::indicator { border-radius: 11px; }"
        "QRadioButton::indicator:checked, QCheckBox::indicator:checked { background: #ffd400; }"));
    layout->addWidget(below_);
    auto* foot = new QHBoxLayout;
    caption_ = new QLabel;
    caption_->setObjectName(QStringLiteral("projectorCaption"));
    caption_->setTextFormat(Qt::PlainText);
    caption_->setMinimumWidth(1);
    keyHelp_ = new QLabel;
    keyHelp_->setObjectName(QStringLiteral("projectorKeys"));
    foot->addWidget(caption_, 1);
    foot->addWidget(keyHelp_);
    layout->addLayout(foot);
    page_->hide();
    page_->installEventFilter(this);

    // A window without an action for a key (the workbench has no steps) gets no shortcut for it.
    const auto bind = [this](std::initializer_list<Qt::Key> sequence, const std::function<void()>& action) {
        if (!action) return;
        for (const Qt::Key k : sequence)
            connect(new QShortcut(QKeySequence(k), page_, nullptr, nullptr, Qt::WidgetWithChildrenShortcut),
                    &QShortcut::activated, this, action);
    };
    bind({Qt::Key_Space, Qt::Key_Right, Qt::Key_PageDown}, keys_.step);
    bind({Qt::Key_Left, Qt::Key_PageUp, Qt::Key_Backspace}, keys_.back);
    bind({Qt::Key_P}, keys_.play);
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    connect(leave, &QShortcut::activated, this, [this] { set(false); });

    connect(picture_, &DataPathView::eventShown, this, [this](const QString& text) {
        // One line, whatever the call printed (a memory event's lines of bytes); kept while off, for when
        // the projector is turned on.
        caption_->setToolTip(text.simplified());
        if (on_) refreshHeadline();
    });
    headline_->installEventFilter(this);
    caption_->installEventFilter(this);
    connect(picture_, &DataPathView::idle, this, [this] {
        if (on_) refreshHeadline();
    });
    retranslate();
}

ProjectorLayout::~ProjectorLayout() = default;

void ProjectorLayout::showBelowPicture(QWidget* widget) {
    belowWidgets_.emplace_back(widget);
}

bool ProjectorLayout::set(bool on) {
    if (on == on_) return false;
    on_ = on;
    if (action_) {
        const QSignalBlocker quiet(action_);
        action_->setChecked(on);
    }
    applyPresentationLook(on);
    stage_->setPresentationMode(on);
    auto* pageLayout = static_cast<QVBoxLayout*>(page_->layout());
    if (on) {
        hidden_.clear();
        QList<QWidget*> bars{window_->menuBar(), window_->statusBar()};
        for (auto* bar : window_->findChildren<QToolBar*>(QString(), Qt::FindDirectChildrenOnly))
            bars << bar;
        for (QWidget* bar : bars) {
            hidden_.emplace_back(bar, !bar->isHidden());
            bar->hide();
        }
        central_ = window_->takeCentralWidget();
        if (central_) { // kept the window's (found by name, destroyed with it), hidden
            central_->setParent(window_);
            central_->hide();
        }
        picturePlace_ = takeFromPlace(picture_);
        pageLayout->insertWidget(1, picture_, 1);
        picture_->show();
        belowPlaces_.clear();
        for (const auto& w : belowWidgets_)
            if (w) {
                belowPlaces_.push_back(takeFromPlace(w));
                below_->layout()->addWidget(w);
                w->setVisible(belowPlaces_.back().visible);
            }
        window_->setCentralWidget(page_); // the window owns the page while on
        // The presentation look's palette, also where the page was made before it (a hidden top-level
        // widget keeps the palette it resolved then).
        page_->setPalette(QApplication::palette());
        page_->setAutoFillBackground(true);
        page_->show();
        headline_->setFont(headlineFont(30, true));
        caption_->setFont(headlineFont(24, false));
        keyHelp_->setFont(headlineFont(16, false));
        // A line high whatever they say (empty at first): a text arriving later does not move the picture.
        for (QLabel* label : {headline_, caption_, keyHelp_})
            label->setFixedHeight(label->fontMetrics().height() + 4);
        zoomBefore_ = picture_->zoom();
        picture_->setMinimumTextPixels(kProjectorTextPixels);
        picture_->setFocus();
        // Laid out now, in the new fonts: a screenshot or a test right after sees the projector's page, not
        // the page as it was before the fonts grew (the layout requests are otherwise handled later).
        refreshHeadline();
        window_->layout()->activate();
        pageLayout->activate();
        elide();
        if (realScreen(window_)) // headless: as sized
            window_->setWindowState(window_->windowState() | Qt::WindowFullScreen);
    } else {
        picture_->setMinimumTextPixels(0);
        picture_->setZoom(zoomBefore_);
        window_->takeCentralWidget(); // the page, kept (hidden) for the next time
        page_->setParent(window_);
        page_->hide();
        pageLayout->removeWidget(picture_);
        putBack(picturePlace_);
        for (const auto& place : belowPlaces_)
            putBack(place);
        belowPlaces_.clear();
        if (central_) {
            window_->setCentralWidget(central_);
            central_->show();
        }
        for (const auto& [bar, shown] : hidden_)
            if (bar) bar->setVisible(shown);
        hidden_.clear();
        window_->setWindowState(window_->windowState() & ~Qt::WindowFullScreen);
    }
    emit changed(on);
    return true;
}

void ProjectorLayout::refreshHeadline() {
    headline_->setToolTip(picture_->titleTexts().join(QStringLiteral(" · ")).simplified());
    elide();
}

void ProjectorLayout::elide() {
    // The full texts are the tooltips; each label shows as much as its width holds.
    for (QLabel* label : {headline_, caption_})
        label->setText(label->fontMetrics().elidedText(label->toolTip(), Qt::ElideRight, label->width()));
}

bool ProjectorLayout::eventFilter(QObject* watched, QEvent* event) {
    if (watched == page_ && event->type() == QEvent::LanguageChange) retranslate();
    if ((watched == headline_ || watched == caption_) && event->type() == QEvent::Resize && on_) elide();
    return QObject::eventFilter(watched, event);
}

void ProjectorLayout::retranslate() {
    QStringList help;
    if (keys_.step) help << tr("Space step");
    if (keys_.back) help << tr("← back");
    if (keys_.play) help << tr("P play");
    help << tr("+/− zoom, drag to pan") << tr("F5 leave");
    keyHelp_->setText(help.join(QStringLiteral(" · ")));
    if (action_) action_->setText(tr("&Projector layout (the picture full screen, large, high contrast)"));
}

QAction* ProjectorLayout::addAction(QMenu* menu) {
    action_ = menu->addAction(QString());
    action_->setObjectName(QStringLiteral("projectorAction"));
    action_->setCheckable(true);
    action_->setShortcut(Qt::Key_F5);
    window_->addAction(action_); // F5 also with the menu bar hidden
    connect(action_, &QAction::toggled, this, [this](bool on) { set(on); });
    retranslate();
    return action_;
}

} // namespace rdmalab::app
