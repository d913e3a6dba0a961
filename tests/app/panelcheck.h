// Checks that a window's panels are on screen: shown, inside the window, and big enough to read (issue 16:
// a 1280x720 projector, a 1024x768 screen).
#pragma once

#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QRect>
#include <QString>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QWidget>

namespace rdmalab::test {

/// Empty when every named child of `window` is visible, lies inside the window's rect and is at least
/// `minSide` px wide and high; else what is wrong, one line per panel.
inline QString panelsOffScreen(QWidget& window, const QStringList& names, int minSide = 80) {
    QStringList problems;
    for (const QString& name : names) {
        auto* panel = window.findChild<QWidget*>(name);
        if (!panel) {
            problems << name + QStringLiteral(": no such child");
            continue;
        }
        const QRect r(panel->mapTo(&window, QPoint(0, 0)), panel->size());
        if (!panel->isVisible() || !window.rect().contains(r) || r.width() < minSide || r.height() < minSide)
            problems << QStringLiteral("%1: %2 at %3,%4 size %5x%6 in a %7x%8 window")
                            .arg(name,
                                 panel->isVisible() ? QStringLiteral("shown") : QStringLiteral("hidden"))
                            .arg(r.x())
                            .arg(r.y())
                            .arg(r.width())
                            .arg(r.height())
                            .arg(window.width())
                            .arg(window.height());
    }
    return problems.join('\n');
}

/// Empty when no visible label, button or combo box of `window` cuts its text: a one-line label, a button
/// or a combo box's current choice wider than the room it has, or a wrapped label taller than its room; else
/// one line per cut text ("objectName 'text': needs W x H, has w x h"). Rich-text labels are passed over
/// (their layout is not a plain line) and so are texts a widget elides on purpose (with the full text as its
/// tooltip).
inline QString textsCut(QWidget& window) {
    QStringList problems;
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisibleTo(&window) || w->width() <= 0) continue;
        QString text;
        QSize needs, has = w->contentsRect().size();
        if (auto* label = qobject_cast<QLabel*>(w)) {
            text = label->text();
            if (text.isEmpty() || label->textFormat() == Qt::RichText || Qt::mightBeRichText(text)) continue;
            if (label->wordWrap())
                needs = {0, label->heightForWidth(has.width())};
            else
                needs = label->fontMetrics().size(0, text);
        } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
            text = combo->currentText();
            if (text.isEmpty()) continue;
            QStyleOptionComboBox option;
            option.initFrom(combo);
            option.editable = combo->isEditable();
            const QRect field = combo->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                               QStyle::SC_ComboBoxEditField, combo);
            needs = {combo->fontMetrics().horizontalAdvance(text), 0};
            has = {field.width(), 0};
        } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
            text = button->text();
            if (text.isEmpty()) continue;
            needs = {button->sizeHint().width(), 0};
            has = button->size();
        } else {
            continue;
        }
        if (w->toolTip() == text) continue; // elided on purpose, the whole text one hover away
        if (needs.width() > has.width() + 1 || needs.height() > has.height() + 1)
            problems << QStringLiteral("%1 '%2': needs %3 x %4, has %5 x %6")
                            .arg(w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className())
                                                           : w->objectName(),
                                 text.left(60))
                            .arg(needs.width())
                            .arg(needs.height())
                            .arg(has.width())
                            .arg(has.height());
    }
    return problems.join('\n');
}

/// Empty when `window`'s projector page (issue 30) is laid out whole: its headline, picture, caption and
/// keys inside the window, no text of the page cut, and the headline, caption and keys each a line of their
/// font high; else what is wrong, one line each.
inline QString projectorPageProblems(QWidget& window) {
    QStringList problems;
    const QString outside = panelsOffScreen(
        window, {"projectorHeadline", "dataPathView", "projectorCaption", "projectorKeys"}, 10);
    if (!outside.isEmpty()) problems << outside;
    if (auto* page = window.findChild<QWidget*>(QStringLiteral("projectorPage"))) {
        if (const QString cut = textsCut(*page); !cut.isEmpty()) problems << cut;
    } else {
        problems << QStringLiteral("projectorPage: no such child");
    }
    for (const char* name : {"projectorHeadline", "projectorCaption", "projectorKeys"})
        if (auto* label = window.findChild<QLabel*>(name);
            label && label->height() < label->fontMetrics().height())
            problems << QStringLiteral("%1: %2 px high for a %3 px line")
                            .arg(QLatin1String(name))
                            .arg(label->height())
                            .arg(label->fontMetrics().height());
    return problems.join('\n');
}

} // namespace rdmalab::test
