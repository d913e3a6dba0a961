#include "chartexport.h"

#include "benchexport.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace rdmalab::app {

namespace {

QString unusable(QWidget* widget, const QString& path) {
    if (!widget) return QStringLiteral("Could not save '%1': no widget to render").arg(path);
    if (widget->width() <= 0 || widget->height() <= 0)
        return QStringLiteral("Could not save '%1': the widget has no size yet").arg(path);
    return {};
}

} // namespace

QString saveWidgetPng(QWidget* widget, const QString& path) {
    if (QString error = unusable(widget, path); !error.isEmpty()) return error;
    // grab() renders the widget even when it is hidden or covered, at the screen's pixel ratio.
    const QImage image = widget->grab().toImage();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return QStringLiteral("Could not encode '%1' as PNG").arg(path);
    return writeFileAtomically(path, bytes);
}

QString saveWidgetSvg(QWidget* widget, const QString& path, const QString& title) {
    if (QString error = unusable(widget, path); !error.isEmpty()) return error;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("Exported by rdmalab"));
    QPainter painter;
    if (!painter.begin(&generator))
        return QStringLiteral("Could not start an SVG drawing for '%1'").arg(path);
    widget->render(&painter);
    painter.end();
    if (bytes.isEmpty()) return QStringLiteral("Could not render '%1': the SVG came out empty").arg(path);
    return writeFileAtomically(path, bytes);
}

} // namespace rdmalab::app
