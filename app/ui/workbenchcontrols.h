// The workbench's controls, a group per kind of call: the pair, a work request, receive and poll, the QP's
// state. Each button composes its call as lab steps from the fields; the window performs them.
#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

#include <vector>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace rdmalab::app {

/// The four groups ("pairBox", "sendBox", "receiveBox", "stateBox"): the pair (transport, MTU, each
/// region's size and access flags), a work request (opcode, flags, SGE list, remote offset and rkey,
/// immediate, atomic operands, wr_id), a receive and a poll, and a move of a QP to any state.
class WorkbenchControls : public QWidget {
    Q_OBJECT
  public:
    explicit WorkbenchControls(QWidget* parent = nullptr);

    /// Build the pair needs the engine free (`ready`); the other calls need a pair too (`havePair`).
    void setReady(bool ready, bool havePair);

  signals:
    /// Build the pair: the steps that open the device and build and connect A and B (a pair that exists is
    /// to be torn down first).
    void pairWanted(const std::vector<nlohmann::json>& steps);
    /// A post, poll or move: its one step.
    void stepWanted(const nlohmann::json& step);
    /// A field does not read as what its call needs (nothing is performed): what is wrong.
    void refused(const QString& why);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    QWidget* buildPairGroup();
    QWidget* buildSendGroup();
    QWidget* buildReceiveGroup();
    QWidget* buildStateGroup();
    void retranslateUi();
    /// The fields the opcode uses are enabled, the others not.
    void enableOperands();
    void buildPair();
    void postSend();
    void postReceive();
    void pollCq();
    void moveQp();

    QComboBox *transport_ = nullptr, *mtu_ = nullptr;
    QSpinBox *sizeA_ = nullptr, *sizeB_ = nullptr;
    std::vector<QCheckBox*> accessA_, accessB_;
    QComboBox *wrSide_ = nullptr, *opcode_ = nullptr;
    QLineEdit *sge_ = nullptr, *rkey_ = nullptr, *imm_ = nullptr, *compare_ = nullptr, *swap_ = nullptr,
              *add_ = nullptr;
    QSpinBox *remoteOffset_ = nullptr, *wrId_ = nullptr;
    QCheckBox *useRkey_ = nullptr, *signaled_ = nullptr, *inline_ = nullptr;
    QComboBox *recvSide_ = nullptr, *pollSide_ = nullptr, *qpSide_ = nullptr, *qpTarget_ = nullptr;
    QSpinBox *recvLength_ = nullptr, *pollCount_ = nullptr;
    QPushButton *buildPair_ = nullptr, *postSend_ = nullptr, *postRecv_ = nullptr, *poll_ = nullptr,
                *move_ = nullptr;
};

} // namespace rdmalab::app
