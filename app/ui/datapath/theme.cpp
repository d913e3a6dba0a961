#include "theme.h"

#include <QFontDatabase>

#include <algorithm>
#include <cmath>

namespace rdmalab::app {

namespace {

// One row per named value: its light and its presentation setting, side by side, so the two looks are one
// table rather than two copies of the same list of assignments.
struct ColourRow {
    QColor Theme::*member;
    const char* light;
    const char* presentation;
};

constexpr ColourRow kColours[] = {
    {&Theme::background, "#f4f6f9", "#000000"},  {&Theme::hostFill, "#ffffff", "#000000"},
    {&Theme::border, "#8a96a8", "#ffffff"},      {&Theme::text, "#1b2330", "#ffffff"},
    {&Theme::dim, "#6b7585", "#d0d0d0"},         {&Theme::app, "#e8f1ff", "#000000"},
    {&Theme::verbs, "#e9f7ec", "#000000"},       {&Theme::kernel, "#eeeeee", "#000000"},
    {&Theme::rnic, "#fff4e2", "#000000"},        {&Theme::port, "#efe9fb", "#000000"},
    {&Theme::object, "#ffffff", "#111111"},      {&Theme::slot, "#f2f4f7", "#1c1c1c"},
    {&Theme::accent, "#1f63d6", "#ffd400"},      {&Theme::accentText, "#ffffff", "#000000"},
    {&Theme::illustrated, "#7b3fb5", "#ffd400"}, {&Theme::changed, "#ffd84d", "#ffd400"},
    {&Theme::ok, "#1a7f37", "#7dff8a"},          {&Theme::error, "#cf222e", "#ff4d4d"},
    {&Theme::highlight, "#ff9500", "#00e5ff"},   {&Theme::dataLane, "#1f63d6", "#ffd400"},
    {&Theme::controlLane, "#59636e", "#ffffff"},
};

struct MetricRow {
    qreal Theme::*member;
    qreal light;
    qreal presentation;
};

constexpr MetricRow kMetrics[] = {
    {&Theme::pen, 1.2, 2.2}, {&Theme::thick, 2.5, 4}, {&Theme::base, 13, 16}, {&Theme::small, 11, 13.5},
    {&Theme::title, 15, 18}, {&Theme::big, 26, 30},   {&Theme::mono, 13, 15}, {&Theme::lane, 11, 12},
};

int pixels(qreal px) {
    return std::max(1, static_cast<int>(std::lround(px)));
}

} // namespace

Theme Theme::forMode(bool presentation) {
    Theme t;
    t.presentation = presentation;
    for (const auto& row : kColours)
        t.*row.member = QColor(presentation ? row.presentation : row.light);
    for (const auto& row : kMetrics)
        t.*row.member = presentation ? row.presentation : row.light;
    return t;
}

qreal Theme::smallest() const {
    return std::min({base, small, title, big, mono, lane});
}

QFont Theme::font(qreal px, bool bold, bool italic) const {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels(px));
    f.setBold(bold);
    f.setItalic(italic);
    return f;
}

QFont Theme::monoFont(qreal px, bool bold) const {
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setFamily(QStringLiteral("DejaVu Sans Mono"));
    f.setPixelSize(pixels(px));
    f.setBold(bold);
    return f;
}

} // namespace rdmalab::app
