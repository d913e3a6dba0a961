#include "windowparts.h"

#include "engineclient.h"

#include <QApplication>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolBar>

#include <algorithm>

namespace rdmalab::app {

Banner::Banner(const QString& name, const QString& messageName, Tone tone, QWidget* parent)
    : QFrame(parent), message_(new QLabel) {
    setObjectName(name);
    const char* colors = tone == Tone::Error ? "background: #fbe3e4; border: 1px solid #c01c28;"
                                             : "background: #e3effb; border: 1px solid #1c71d8;";
    setStyleSheet(QStringLiteral("#%1 { %2 }").arg(name, QLatin1String(colors)));
    auto* layout = new QHBoxLayout(this);
    message_->setObjectName(messageName);
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText); // the engine's stderr, errors quoting a file: text, never markup
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(message_, 1);
    hide();
}

QPushButton* Banner::addButton(const QString& name, const QString& text, const QString& toolTip) {
    auto* button = new QPushButton(text);
    button->setObjectName(name);
    button->setToolTip(toolTip);
    layout()->addWidget(button);
    return button;
}

void Banner::showMessage(const QString& text) {
    message_->setText(text);
    show();
}

Banner* makeEngineBanner(QPushButton** restartButton, QWidget* parent) {
    auto* banner = new Banner(QStringLiteral("engineBanner"), QStringLiteral("engineMessage"),
                              Banner::Tone::Error, parent);
    *restartButton = banner->addButton(QStringLiteral("restartEngineButton"), Banner::tr("Restart engine"));
    return banner;
}

void connectEngineBanner(QMainWindow* window, EngineClient* engine, Banner* banner) {
    QObject::connect(engine, &EngineClient::started, banner, &QWidget::hide);
    QObject::connect(engine, &EngineClient::protocolError, window,
                     [window](const QString& message) { window->statusBar()->showMessage(message, 8000); });
}

QLabel* makeAutosaveWarning() {
    auto* warning = new QLabel;
    warning->setObjectName(QStringLiteral("autosaveWarning"));
    warning->setWordWrap(true);
    warning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    warning->setStyleSheet(
        QStringLiteral("background: #fff3b0; color: #000; border: 1px solid #c8a600; padding: 4px;"));
    warning->hide();
    return warning;
}

QPushButton* makeButton(const QString& text, const QString& name) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    return b;
}

void setRowLabel(QWidget* field, const QString& text) {
    auto* form = field && field->parentWidget() ? qobject_cast<QFormLayout*>(field->parentWidget()->layout())
                                                : nullptr;
    if (!form) return;
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(field))) label->setText(text);
}

void applyPresentationLook(bool on) {
    static const QFont normalFont = QApplication::font();
    QFont font = normalFont;
    if (on) font.setPointSizeF(std::max(15.0, normalFont.pointSizeF() * 1.6));
    QApplication::setFont(font);
    if (!on) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette p;
    p.setColor(QPalette::Window, Qt::black);
    p.setColor(QPalette::WindowText, Qt::white);
    p.setColor(QPalette::Base, Qt::black);
    p.setColor(QPalette::AlternateBase, QColor(0x20, 0x20, 0x20));
    p.setColor(QPalette::Text, Qt::white);
    p.setColor(QPalette::Button, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::ButtonText, Qt::white);
    p.setColor(QPalette::Highlight, Qt::yellow);
    p.setColor(QPalette::HighlightedText, Qt::black);
    QApplication::setPalette(p);
}

QToolBar* addFixedToolBar(QMainWindow* window, const QString& title, const QString& name) {
    auto* bar = window->addToolBar(title);
    bar->setObjectName(name);
    bar->setMovable(false);
    return bar;
}

QSize fittedWindowSize(QSize preferred, QSize available, QSize minimum) {
    if (available.isEmpty()) return preferred;
    const QSize room(available.width() * 9 / 10, available.height() * 9 / 10);
    return preferred.boundedTo(room).expandedTo(minimum.boundedTo(available));
}

QSize parseWindowSize(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,5})\\s*[xX×]\\s*(\\d{1,5})\\s*$"));
    const auto match = pattern.match(text);
    if (!match.hasMatch()) return {};
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    auto usable = [](int side) { return side >= 200 && side <= 16384; };
    return usable(size.width()) && usable(size.height()) ? size : QSize();
}

const QScreen* realScreen(const QWidget* window) {
    const QScreen* screen = window->screen();
    if (!screen) return nullptr;
    // The offscreen platform (headless screenshots, the tests) has no real screen: its default one is 800x800
    // (800x600 in newer Qt). Headless runs keep the size they were designed at unless a screen is configured
    // (offscreen:configfile=screens.json).
    const QSize size = screen->availableGeometry().size();
    const bool defaultOffscreen = QGuiApplication::platformName() == QLatin1String("offscreen") &&
                                  (size == QSize(800, 800) || size == QSize(800, 600));
    return defaultOffscreen ? nullptr : screen;
}

void fitToScreen(QMainWindow* window, QSize preferred) {
    const QScreen* screen = realScreen(window);
    const QSize available = screen ? screen->availableGeometry().size() : QSize();
    window->resize(fittedWindowSize(preferred, available));
    // On the screen's available area, whole: a window larger than its minimum never hangs off a projector.
    if (screen && !available.isEmpty()) {
        QRect frame(QPoint(), window->size());
        frame.moveCenter(screen->availableGeometry().center());
        window->move(frame.topLeft());
    }
}

ElidingComboBox::ElidingComboBox(QWidget* parent) : QComboBox(parent) {
    connect(this, &QComboBox::currentTextChanged, this, [this](const QString& text) { setToolTip(text); });
}

void ElidingComboBox::paintEvent(QPaintEvent*) {
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    const QRect field =
        style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    option.currentText = fontMetrics().elidedText(option.currentText, Qt::ElideRight, field.width());
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace rdmalab::app
