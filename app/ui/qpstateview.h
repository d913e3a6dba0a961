// The QP state machine (RESET, INIT, RTR, RTS, SQD, SQE, ERR) with each QP's current state highlighted and
// the attributes its last transition set.
#pragma once

#include "labstate.h"

#include <QWidget>

#include <vector>

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
    void setPresentationMode(bool on);
    QSize sizeHint() const override { return {420, 300}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    std::array<QpState, 2> qps_;
    bool presentation_ = false;
};

} // namespace rdmalab::app
