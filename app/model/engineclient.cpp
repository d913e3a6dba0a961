#include "engineclient.h"
#include "rdmalab/format/buildpaths.hpp"

#include "tracefile.h"

#include "rdmalab/format/fields.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>

namespace rdmalab::app {

std::optional<std::int64_t> commandId(const TraceEvent& event) {
    return Fields(event.ids, "ids").find<std::int64_t>("id");
}

namespace {
EngineHost defaultHost_ = EngineHost::Local;
VmOptions defaultVm_;
SshOptions defaultSsh_;
} // namespace

EngineClient::EngineClient(QObject* parent)
    : QObject(parent), host_(defaultHost_), vm_(defaultVm_), ssh_(defaultSsh_), program_(defaultProgram()) {
    batchTimer_.setSingleShot(true);
    batchTimer_.setInterval(kBatchIntervalMs);
    connect(&batchTimer_, &QTimer::timeout, this, &EngineClient::flushBatch);
    setHost(host_, vm_, ssh_);
}

EngineClient::~EngineClient() {
    stop();
}

void EngineClient::setDefaultHost(EngineHost host, const VmOptions& vm, const SshOptions& ssh) {
    defaultHost_ = host;
    defaultVm_ = vm;
    defaultSsh_ = ssh;
}

EngineHost EngineClient::defaultHost() {
    return defaultHost_;
}

void EngineClient::setHost(EngineHost host, const VmOptions& vm, const SshOptions& ssh) {
    if (transport_) {
        stop();
        delete transport_;
    }
    host_ = host;
    vm_ = vm;
    ssh_ = ssh;
    if (host == EngineHost::Vm)
        transport_ = new VmTransport(vm, this);
    else if (host == EngineHost::Ssh)
        transport_ = new SshTransport(ssh, this);
    else
        transport_ = new ProcessTransport(this);
    connect(transport_, &EngineTransport::opened, this, &EngineClient::onStarted);
    connect(transport_, &EngineTransport::readyRead, this, &EngineClient::readOutput);
    connect(transport_, &EngineTransport::exited, this, &EngineClient::onExited);
    connect(transport_, &EngineTransport::failed, this, &EngineClient::onFailed);
    connect(transport_, &EngineTransport::progress, this, &EngineClient::startProgress);
    connect(transport_, &EngineTransport::downloadProgress, this, &EngineClient::startDownload);
}

QString EngineClient::defaultProgram() {
    QString beside = QCoreApplication::applicationDirPath() + "/rdmalab-cli";
    if (QFileInfo(beside).isExecutable()) return beside;
    QString built = QString::fromUtf8(build::cli_path());
    if (QFileInfo(built).isExecutable()) return built;
    const QString inPath = QStandardPaths::findExecutable("rdmalab-cli");
    return inPath.isEmpty() ? QStringLiteral("rdmalab-cli") : inPath;
}

void EngineClient::start() {
    if (transport_->isActive()) return;
    stopping_ = false;
    diedReported_ = false;
    buffer_.clear();
    pending_ = 0;
    lineNumber_ = 0;
    skippedEvents_ = 0;
    transport_->open(program_);
}

void EngineClient::stop() {
    if (!transport_ || !transport_->isActive()) return;
    stopping_ = true;
    if (transport_->isOpen()) write("{\"cmd\":\"quit\"}\n");
    transport_->close();
    readOutput();
    flushBatch();
}

void EngineClient::write(const std::string& line) {
    transport_->device()->write(line.data(), static_cast<qint64>(line.size()));
}

QString EngineClient::engineName() const {
    if (host_ == EngineHost::Local) return program_;
    if (host_ == EngineHost::Ssh) return tr("rdmalab-cli on %1").arg(transport_->where());
    return tr("%1 in the %2").arg(program_, transport_->where());
}

void EngineClient::onStarted() {
    // First of all, the engine says which protocol it speaks (readOutput checks the answer).
    const nlohmann::json hello = {
        {"id", kHelloCommandId}, {"cmd", std::string(protocol::kHello)}, {"protocol", kProtocolVersion}};
    write(hello.dump() + "\n");
    emit started();
}

int EngineClient::send(const QString& cmd, const nlohmann::json& fields) {
    if (!isRunning()) return -1;
    nlohmann::json command = fields.is_object() ? fields : nlohmann::json::object();
    const int id = nextId_++;
    command["id"] = id;
    if (cmd == protocolName(protocol::kHello)) command["protocol"] = kProtocolVersion;
    command["cmd"] = cmd.toStdString();
    write(command.dump() + "\n");
    ++pending_;
    return id;
}

void EngineClient::readOutput() {
    QIODevice* device = transport_ ? transport_->device() : nullptr;
    if (!device || !device->isOpen()) return;
    if (diedReported_) { // refused or ended: nothing it sends now is read
        device->readAll();
        return;
    }
    const qsizetype scanned = buffer_.size(); // holds no newline: only what arrives now is searched
    buffer_ += device->readAll();
    bool answered = false;
    for (qsizetype newline = buffer_.indexOf('\n', scanned); newline >= 0; newline = buffer_.indexOf('\n')) {
        if (newline > kMaxEngineLineBytes)
            return refuseOutput(
                tr("output line %1: longer than %2 MiB").arg(lineNumber_ + 1).arg(kMaxEngineLineBytes >> 20));
        const QByteArray line = buffer_.left(newline);
        buffer_.remove(0, newline + 1);
        ++lineNumber_;
        if (line.trimmed().isEmpty()) continue;
        const std::string_view text(line.constData(), static_cast<std::size_t>(line.size()));
        TraceParseError error;
        auto event = parse_json_line(text, error);
        if (!event) {
            error.line = lineNumber_;
            return refuseOutput(tr("output %1").arg(QString::fromStdString(error.to_string())));
        }
        // An event the views cannot read is skipped with its field named; what came before is kept.
        if (const auto bad = checkEventFields(*event)) {
            error.line = lineNumber_;
            error.field = bad->field();
            error.message = bad->problem();
            const QString where = tr("output %1").arg(QString::fromStdString(error.to_string()));
            if (++skippedEvents_ >= kMaxSkippedEvents)
                return refuseOutput(
                    tr("%1 (%2 events had a field of the wrong type)").arg(where).arg(skippedEvents_));
            emit protocolError(tr("engine %1; the event was skipped").arg(where));
            continue;
        }
        if (event->kind == EventKind::Result && event->name == protocol::kHello && refuseProtocol(*event))
            return;
        const bool handshake = event->ids.value("id", nlohmann::json()) == nlohmann::json(kHelloCommandId);
        if (event->kind == EventKind::Result && !handshake && pending_ > 0) --pending_;
        answered = answered || event->kind == EventKind::Result;
        batch_.push_back(std::move(*event));
    }
    if (buffer_.size() > kMaxEngineLineBytes)
        return refuseOutput(
            tr("output line %1: longer than %2 MiB").arg(lineNumber_ + 1).arg(kMaxEngineLineBytes >> 20));
    // A command's answer goes out at once: whoever sent the command waits for it (a lab played step by
    // step would otherwise wait a batch interval per step); a stream of other events is coalesced.
    if (answered) {
        batchTimer_.stop();
        flushBatch();
    } else if (!batch_.empty() && !batchTimer_.isActive())
        batchTimer_.start();
}

void EngineClient::refuseOutput(const QString& reason) {
    const QString shown = reason.size() > 600 ? reason.left(600) + QStringLiteral("…") : reason;
    abandon(tr("The engine process (%1) sent something that is not a trace event: %2\nIt was stopped. "
               "Nothing you recorded is lost: the trace so far stays in the timeline and can be saved. "
               "Press Restart engine to go on.")
                .arg(engineName(), shown));
}

bool EngineClient::refuseProtocol(const TraceEvent& hello) {
    const nlohmann::json* protocol =
        hello.data.is_object() && hello.data.contains("protocol") ? &hello.data.at("protocol") : nullptr;
    if (protocol && *protocol == nlohmann::json(kProtocolVersion)) return false;
    const auto version =
        hello.data.is_object() ? hello.data.value("version", nlohmann::json()) : nlohmann::json();
    const QString engine =
        QStringLiteral("%1 (rdmalab-cli %2)")
            .arg(engineName(), version.is_string() ? QString::fromStdString(version.get<std::string>())
                                                   : QStringLiteral("?"));
    const QString theirs = protocol
                               ? tr("speaks engine protocol %1").arg(QString::fromStdString(protocol->dump()))
                               : tr("announces no engine protocol (it is older than protocol versions)");
    abandon(tr("This app (rdmalab %1) speaks engine protocol %2, but the engine %3 %4. The two cannot work "
               "together, so the engine was stopped: install the same rdmalab version on both sides (the "
               "app starts the rdmalab-cli next to it, else the one in the build tree, else the one on "
               "PATH).")
                .arg(QStringLiteral(RDMALAB_VERSION))
                .arg(kProtocolVersion)
                .arg(engine, theirs));
    return true;
}

void EngineClient::abandon(const QString& message) {
    diedReported_ = true; // from here on, nothing it sends is read and its exit is not reported again
    buffer_.clear();
    // It does not speak this app's protocol, so it is not asked to quit: it is stopped. Stopped before the
    // events that came before go out, so whoever handles them already sees an engine that is not running.
    transport_->kill();
    flushBatch();
    pending_ = 0;
    emit engineDied(message);
}

void EngineClient::flushBatch() {
    if (batch_.empty()) return;
    std::vector<TraceEvent> events;
    events.swap(batch_);
    emit eventsArrived(events);
}

void EngineClient::onExited(int exitCode, bool crashed, const QString& err) {
    readOutput();
    flushBatch();
    if (stopping_ || diedReported_) return;
    diedReported_ = true;
    QString message = crashed
                          ? tr("The engine process (%1) crashed.").arg(program_)
                          : tr("The engine process (%1) exited with status %2.").arg(program_).arg(exitCode);
    if (!err.isEmpty()) message += "\n" + err.right(2000);
    message += tr("\nNothing you recorded is lost: the trace so far stays in the timeline and can be saved. "
                  "Press Restart engine to go on.");
    pending_ = 0;
    emit engineDied(message);
}

void EngineClient::onFailed(const QString& message) {
    readOutput();
    flushBatch();
    if (stopping_ || diedReported_) return;
    diedReported_ = true;
    QString text = message;
    // What was lost with it: the commands it had not answered (the step that was running).
    if (pending_ == 1)
        text += tr("\nLost: the answer to the command that was running (the step did not finish).");
    else if (pending_ > 1)
        text += tr("\nLost: the answers to the %1 commands that were running (the step did not finish).")
                    .arg(pending_);
    pending_ = 0;
    emit engineDied(text);
}

} // namespace rdmalab::app
