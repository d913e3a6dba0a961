// The look of the lab's drawn views, as data: named colours, line widths and font sizes for the normal
// (light) look and for presentation mode (large fonts, thick lines, black/white/yellow). The data-path view
// paints only from it; other views and presentation mode can take their colours from the same place.
#pragma once

#include <QColor>
#include <QFont>

namespace rdmalab::app {

struct Theme {
    bool presentation = false;
    QColor background, hostFill, border, text, dim;
    QColor app, verbs, kernel, rnic, port, object, slot;
    QColor accent, accentText; ///< observed tokens
    QColor illustrated;        ///< outline and text of illustrations
    QColor changed, ok, error, highlight, dataLane, controlLane;
    qreal pen = 1.2;                                              ///< ordinary outline width
    qreal thick = 2.5;                                            ///< emphasised lines (link, highlight)
    qreal base = 13, small = 11, title = 15, big = 26, mono = 13; ///< font pixel sizes
    qreal lane = 11; ///< the data lane's label, squeezed between the kernel and the lane

    /// The light look (presentation false) or the presentation look (true).
    static Theme forMode(bool presentation);
    /// Becomes the look for `presentation` (what setPresentationMode switches).
    void set(bool on) { *this = forMode(on); }

    /// The smallest of the font sizes above: what the picture's smallest text is drawn at, in scene units.
    qreal smallest() const;

    /// DejaVu Sans at `px` pixels (rounded, at least 1).
    QFont font(qreal px, bool bold = false, bool italic = false) const;
    /// DejaVu Sans Mono at `px` pixels.
    QFont monoFont(qreal px, bool bold = false) const;
};

} // namespace rdmalab::app
