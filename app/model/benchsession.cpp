#include "benchsession.h"

#include "rdmalab/format/fields.hpp"

namespace rdmalab::app {

BenchSession::BenchSession(EngineClient* engine, QObject* parent) : QObject(parent), engine_(engine) {
    if (engine_) {
        connect(engine_, &EngineClient::eventsArrived, this, &BenchSession::handleEvents);
        connect(engine_, &EngineClient::engineDied, this, &BenchSession::onEngineDied);
    }
}

bool BenchSession::start(const Request& request) {
    if (running_) {
        lastError_ = tr("A measurement is already running: stop it first.");
        return false;
    }
    if (!engine_ || !engine_->isRunning()) {
        lastError_ = tr("The engine process is not running: press Restart engine.");
        return false;
    }
    if (request.kinds.isEmpty()) {
        lastError_ = tr("Choose what to measure.");
        return false;
    }
    nlohmann::json fields;
    nlohmann::json kinds = nlohmann::json::array();
    for (const auto& k : request.kinds)
        kinds.push_back(k.toStdString());
    fields["kinds"] = kinds;
    if (request.sweep) {
        fields["sweep"] = true;
        if (request.maxSize > 0) fields["max_size"] = request.maxSize;
    } else {
        nlohmann::json sizes = nlohmann::json::array();
        for (auto s : request.sizes)
            sizes.push_back(s);
        if (sizes.empty()) sizes.push_back(2);
        fields["sizes"] = sizes;
    }
    if (request.seconds > 0)
        fields["seconds"] = request.seconds;
    else
        fields["iters"] = request.iters;
    fields["warmup"] = request.warmup;
    fields["window"] = request.window;
    if (!request.device.isEmpty()) fields["device"] = request.device.toStdString();
    if (!request.cpus.isEmpty()) {
        nlohmann::json cpus = nlohmann::json::array();
        for (int cpu : request.cpus)
            cpus.push_back(cpu);
        fields["cpus"] = cpus;
    }
    if (request.traceWr) fields["trace_wr"] = true;
    clear();
    requestId_ = engine_->send(protocolName(protocol::kBenchStart), fields);
    if (requestId_ < 0) {
        lastError_ = tr("The engine process is not running: press Restart engine.");
        return false;
    }
    running_ = true;
    emit runningChanged(true);
    emit dataChanged();
    return true;
}

void BenchSession::stop() {
    if (running_ && engine_) engine_->send(protocolName(protocol::kBenchStop));
}

void BenchSession::clear() {
    runs_.clear();
    events_.clear();
    current_ = -1;
    lastError_.clear();
    device_.clear();
    softwareDevice_ = false;
    replay_ = false;
    replaySource_.clear();
}

void BenchSession::openReplay(const std::vector<TraceEvent>& events, const QString& source) {
    if (running_) stop();
    clear();
    replay_ = true;
    replaySource_ = source;
    requestId_ = -1;
    for (const auto& e : events) {
        events_.push_back(e);
        apply(e);
    }
    running_ = false;
    emit dataChanged();
    emit finished(lastError_.isEmpty(), lastError_);
}

void BenchSession::handleEvents(const std::vector<TraceEvent>& events) {
    if (replay_) return;
    bool touched = false;
    for (const auto& e : events) {
        // Our request's events carry its id; the session header that precedes the reply does not.
        const bool ours = commandId(e) == requestId_;
        const bool header = e.kind == EventKind::Session && running_;
        if (!ours && !header) continue;
        events_.push_back(e);
        apply(e);
        touched = true;
    }
    if (touched) emit dataChanged();
}

void BenchSession::onEngineDied(const QString& message) {
    if (!running_) return;
    fail(tr("The engine stopped during the measurement; the results so far are kept.\n%1").arg(message));
}

void BenchSession::fail(const QString& error) {
    lastError_ = error;
    running_ = false;
    emit runningChanged(false);
    emit finished(false, error);
}

void BenchSession::checkFields(const TraceEvent& event) {
    BenchSession scratch(nullptr);
    scratch.replay_ = true; // nothing to announce
    scratch.apply(event);
}

BenchRun* BenchSession::runAt(const Fields& data) {
    // Read before the run is looked up, so that every field is read whatever runs exist (checkFields).
    const auto index = data.find<int>("index");
    const auto kind = data.find<std::string>("kind");
    const auto size = data.find<qint64>("size");
    if (!index || *index < 0 || *index >= kMaxRuns) return nullptr;
    if (static_cast<std::size_t>(*index) >= runs_.size()) runs_.resize(static_cast<std::size_t>(*index) + 1);
    BenchRun& run = runs_[static_cast<std::size_t>(*index)];
    run.index = *index;
    if (run.kind.isEmpty() && kind) run.kind = QString::fromStdString(*kind);
    if (run.size == 0 && size) run.size = *size;
    return &run;
}

void BenchSession::apply(const TraceEvent& e) {
    const Fields d(e.data, "data");
    if (e.kind == EventKind::Session) {
        if (!d.has("device_info")) return;
        const Fields info = d.object("device_info");
        device_ = QString::fromStdString(info.text("name"));
        softwareDevice_ = info.get<bool>("software", false);
        return;
    }
    if (e.kind == EventKind::Result && e.name == protocol::kBenchStart) {
        if (!d.get<bool>("ok", false))
            fail(QString::fromStdString(d.text("error", std::string(protocol::kBenchStart) + " failed")));
        return;
    }
    if (e.kind != EventKind::Measure) return;
    if (e.name == protocol::kBenchDone) {
        const bool ok = d.get<bool>("ok", false);
        const QString error = QString::fromStdString(d.text("error", "the measurement failed"));
        const bool wasRunning = running_;
        running_ = false;
        if (!ok) lastError_ = error;
        if (wasRunning) emit runningChanged(false);
        if (!replay_) emit finished(ok, lastError_);
        return;
    }
    BenchRun* run = runAt(d);
    if (!run) return;
    if (e.name == protocol::kBenchBegin) {
        run->plannedIters = d.get<qint64>("iters", 0);
        current_ = run->index;
        emit runStarted(run->index);
    } else if (e.name == protocol::kBenchSamples) {
        run->appendSamples(d.list<double>("samples_us"));
    } else if (e.name == protocol::kBenchProgress) {
        const double t = d.get<double>("elapsed_s", 0.0);
        const double bytes = d.get<double>("bytes", 0.0);
        if (t > run->lastProgressS) {
            run->bandwidth.push_back({t, (bytes - run->lastProgressBytes) / (t - run->lastProgressS) / 1e6});
            run->lastProgressS = t;
            run->lastProgressBytes = bytes;
        }
    } else if (e.name == protocol::kBenchPipeline) {
        run->appendPipelineSlice(d.json());
    } else if (e.name == protocol::kBenchResult) {
        const QString error = run->applyResult(d.json());
        if (!error.isEmpty()) {
            lastError_ = error;
            return;
        }
        if (!run->isTcp()) { // TCP results name the loopback stack, not the RDMA device
            device_ = run->device;
            softwareDevice_ = run->softwareDevice;
        }
        emit runFinished(run->index);
    }
}

} // namespace rdmalab::app
