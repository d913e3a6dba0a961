// The QP state machine (RESET, INIT, RTR, RTS, SQD, SQE, ERR) with each QP's current state highlighted and
// the attributes its last transition set.
#pragma once

#include "labstate.h"

#include <QWidget>

namespace rdmalab::app {

class QpStateView : public QWidget {
    Q_OBJECT
  public:
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
