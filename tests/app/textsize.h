// Measures the text a view draws as it reaches the screen: the view renders into a paint device whose
// engine records every text item with its font and the painter's transform, so the size on screen is the
// font's pixel size times the transform's scale (issue 30: picture text at least 18 px on a projector).
#pragma once

#include <QGraphicsView>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QString>
#include <QTextItem>

#include <cmath>
#include <memory>
#include <vector>

namespace rdmalab::test {

/// One text the view drew: what it said, its height on screen in pixels and where it starts (view pixels).
struct DrawnText {
    QString text;
    qreal pixels = 0;
    QPointF at;
};

namespace detail {

class TextRecordingEngine : public QPaintEngine {
  public:
    TextRecordingEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    std::vector<DrawnText> texts;

    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    // Everything but text is dropped (the defaults call one another for want of a raster to draw on).
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
    void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
    void drawLines(const QLineF*, int) override {}
    void drawLines(const QLine*, int) override {}
    void drawRects(const QRectF*, int) override {}
    void drawRects(const QRect*, int) override {}
    void drawEllipse(const QRectF&) override {}
    void drawEllipse(const QRect&) override {}
    void drawPoints(const QPointF*, int) override {}
    void drawPoints(const QPoint*, int) override {}
    void drawTextItem(const QPointF& p, const QTextItem& item) override {
        const QTransform t = painter()->combinedTransform();
        const qreal scale = std::sqrt(std::abs(t.determinant()));
        const QFont font = item.font();
        const qreal px = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
        texts.push_back({item.text(), px * scale, t.map(p)});
    }
    Type type() const override { return QPaintEngine::User; }
};

class TextRecordingDevice : public QPaintDevice {
  public:
    explicit TextRecordingDevice(QSize size) : size_(size) {}
    QPaintEngine* paintEngine() const override { return &engine_; }
    TextRecordingEngine& engine() const { return engine_; }

  protected:
    int metric(PaintDeviceMetric m) const override {
        switch (m) {
        case PdmWidth:
            return size_.width();
        case PdmHeight:
            return size_.height();
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return INT_MAX;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
        default:
            return 0;
        }
    }

  private:
    QSize size_;
    mutable TextRecordingEngine engine_;
};

} // namespace detail

/// Every text `view` draws in its viewport as it is now (what is scrolled out of view is left out), with
/// its size on screen.
inline std::vector<DrawnText> textsOnScreen(QGraphicsView& view) {
    const QRect viewport = view.viewport()->rect();
    detail::TextRecordingDevice device(viewport.size());
    {
        QPainter painter(&device);
        view.render(&painter, QRectF(viewport), viewport);
    }
    std::vector<DrawnText> out;
    for (auto& t : device.engine().texts)
        if (!t.text.trimmed().isEmpty() && QRectF(viewport).adjusted(-1, -4, 1, 4).contains(t.at))
            out.push_back(std::move(t));
    return out;
}

/// The smallest text `view` draws on screen now, in pixels (0: none).
inline qreal smallestTextOnScreen(QGraphicsView& view) {
    qreal smallest = 0;
    for (const auto& t : textsOnScreen(view))
        if (smallest == 0 || t.pixels < smallest) smallest = t.pixels;
    return smallest;
}

} // namespace rdmalab::test
