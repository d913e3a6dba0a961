// Engine ▸ Where the engine runs…: this machine, a SoftRoCE VM the app boots, or another host over SSH
// (the same three choices as `rdmalab --engine local|vm|ssh://HOST`).
#pragma once

#include "engineclient.h"

#include <QDialog>

class QButtonGroup;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace rdmalab::app {

class EngineHostDialog : public QDialog {
    Q_OBJECT
  public:
    /// Opens with `host` (and, for SSH, `ssh`) chosen.
    EngineHostDialog(EngineHost host, const SshOptions& ssh, QWidget* parent = nullptr);

    EngineHost host() const;
    /// The SSH host and remote program, when host() is EngineHost::Ssh.
    SshOptions ssh() const { return ssh_; }

    void accept() override;

  private:
    void refresh();

    QRadioButton *local_ = nullptr, *vm_ = nullptr, *ssh_radio_ = nullptr;
    QLineEdit *address_ = nullptr, *program_ = nullptr;
    QLabel* error_ = nullptr;
    SshOptions ssh_;
};

/// "alice@host", "host:2222" or "ssh://alice@host:2222" as SshOptions; nullopt and why in `error` when it
/// is none of these.
std::optional<SshOptions> readSshAddress(const QString& text, QString* error);

} // namespace rdmalab::app
