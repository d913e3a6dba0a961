// Saving what a widget shows (a chart, a page) as PNG or SVG, for reports and slides.
#pragma once

#include <QString>

class QWidget;

namespace rdmalab::app {

/// Renders `widget` at its current size into a PNG file (written atomically). Returns an error text
/// naming the path, or an empty string.
QString saveWidgetPng(QWidget* widget, const QString& path);

/// Renders `widget` through QSvgGenerator into an SVG file titled `title` (written atomically). Text
/// and lines stay vectors; pixmaps inside the widget are embedded as images. Returns an error text
/// naming the path, or an empty string.
QString saveWidgetSvg(QWidget* widget, const QString& path, const QString& title);

} // namespace rdmalab::app
