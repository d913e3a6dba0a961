// The bytes of A's and B's buffers (hex and text), with the bytes the last operation changed highlighted.
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
    std::array<MemoryState, 2> memory_;
    std::array<RegionState, 2> regions_;
    bool presentation_ = false;
};

} // namespace rdmalab::app
