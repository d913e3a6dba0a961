// Checks that a window's panels are on screen: shown, inside the window, and big enough to read (issue 16:
// a 1280x720 projector, a 1024x768 screen).
#pragma once

#include <QRect>
#include <QString>
#include <QStringList>
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

} // namespace rdmalab::test
