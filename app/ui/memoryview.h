// The bytes of A's and B's buffers (hex and text), and C's and D's when the run names them, with the bytes
// the last operation changed highlighted.
#pragma once

#include "labstate.h"

#include <QWidget>

namespace rdmalab::app {

class MemoryView : public QWidget {
    Q_OBJECT
  public:
    explicit MemoryView(QWidget* parent = nullptr);
    void setState(const LabState& state);
    void setPresentationMode(bool on);
    QSize sizeHint() const override { return {420, 260}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    std::array<MemoryState, kSides> memory_;
    std::array<RegionState, kSides> regions_;
    std::array<bool, kSides> cast_{true, true, false, false};
    bool presentation_ = false;
};

} // namespace rdmalab::app
