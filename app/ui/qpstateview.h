// The QP state machine (RESET, INIT, RTR, RTS, SQD, SQE, ERR) with each QP's current state highlighted and
// the attributes its last transition set.
#pragma once

#include "labstate.h"

#include <QPointF>
#include <QSizeF>
#include <QWidget>

#include <vector>

class QPainter;

namespace rdmalab::app {

class QpStateView : public QWidget {
    Q_OBJECT
  public:
    /// An arrow of the diagram: a transition of the IBTA QP state machine.
    struct Transition {
        QString from, to;
        bool dashed = false; ///< not a transition of the lessons' RC QPs
        QString caption;     ///< drawn beside the arrow when not empty
    };
    /// The arrows drawn. RTS→SQE is dashed and captioned: only UC and UD QPs enter SQE after a send error;
    /// a failed request takes an RC QP to ERR (docs/claims.md Q10).
    static std::vector<Transition> transitions();

    explicit QpStateView(QWidget* parent = nullptr);
    void setState(const LabState& state);
    /// The state shown of side A's (0), B's (1), C's (2) or D's (3) QP ("RESET", "INIT", …; empty: none).
    QString shownState(int side) const { return qps_.at(static_cast<std::size_t>(side)).state; }
    void setPresentationMode(bool on);
    QSize sizeHint() const override { return {420, 300}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    /// Where the diagram goes: its 100 x 100 layout scaled to the upper part of the view (`w` by `h`), and
    /// the size of a state's box.
    struct Geometry {
        double w, h;
        QSizeF box;
        QPointF at(QPointF pos) const { return {pos.x() / 100.0 * w + 20, pos.y() / 100.0 * h + 8}; }
    };
    void drawTransitions(QPainter& p, const Geometry& g, const QFont& font, const QColor& fg) const;
    /// The states, each QP's in its colour with a tag under it.
    void drawStates(QPainter& p, const Geometry& g, const QFont& font, const QColor& fg) const;
    /// Each QP's number, type and state, and the attributes its last transition set, from `top` down.
    void drawQpLines(QPainter& p, const QFont& font, double top) const;

    /// The endpoints whose QPs are drawn: A and B, and C and D when the run names them.
    std::vector<int> sides() const;

    std::array<QpState, kSides> qps_;
    std::array<bool, kSides> cast_{true, true, false, false};
    bool presentation_ = false;
};

} // namespace rdmalab::app
