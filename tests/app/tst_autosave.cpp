// Autosave and Save trace when the disk says no: a folder that cannot be created, a full disk (/dev/full,
// a file size limit reached mid-session), two sessions started together, a read-only folder. Nothing is
// lost silently: the failure is shown with the path and the system's reason, the session stays in
// memory, files hold whole lines only, and an earlier recording is never damaged.
// And when the app itself dies: a session left without being closed is offered on the next start
// (never one of an instance that still runs), reopens as a replay of its complete events, or is
// dismissed and kept.
#include "benchwindow.h"
#include "mainwindow.h"
#include "testutil.hpp"
#include "tracefile.h"
#include "windowdrivers.h"

#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <set>

using namespace rdmalab;
using namespace rdmalab::app;
using rdmalab::test::deadProcessId;
using rdmalab::test::mainWindow;
using rdmalab::test::recordingLines;
using rdmalab::test::windowParts;
using rdmalab::test::writeUnfinishedSession;

namespace {
const QString kData = (RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/"));

std::vector<TraceEvent> recording(const QString& name) {
    TraceFileError error;
    auto events = readTraceFile(kData + name, error);
    if (!events) qFatal("%s", qPrintable(error.toString()));
    return *events;
}

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const QByteArray& value) : name_(name) { qputenv(name, value); }
    ~ScopedEnv() { qunsetenv(name_); }

  private:
    const char* name_;
};

/// Root ignores file permissions (CAP_DAC_OVERRIDE); while this lives, this thread does not, so a
/// read-only folder is read-only for the test too.
class WithoutPermissionOverride {
  public:
    WithoutPermissionOverride() {
        header_.version = _LINUX_CAPABILITY_VERSION_3;
        header_.pid = 0;
        if (syscall(SYS_capget, &header_, saved_) != 0) return;
        __user_cap_data_struct lowered[2] = {saved_[0], saved_[1]};
        lowered[0].effective &= ~(1U << CAP_DAC_OVERRIDE);
        restore_ = syscall(SYS_capset, &header_, lowered) == 0;
    }
    ~WithoutPermissionOverride() {
        if (restore_) syscall(SYS_capset, &header_, saved_);
    }

  private:
    __user_cap_header_struct header_{};
    __user_cap_data_struct saved_[2]{};
    bool restore_ = false;
};

/// A lower file size limit while it lives: writes past it fail with EFBIG, as on a disk that filled up.
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &saved_);
        previousHandler_ = std::signal(SIGXFSZ, SIG_IGN); // the default action would end the process
        const rlimit lowered{bytes, saved_.rlim_max};
        setrlimit(RLIMIT_FSIZE, &lowered);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previousHandler_);
    }

  private:
    rlimit saved_{};
    void (*previousHandler_)(int) = nullptr;
};

/// The marker JSON of a process identity, as SessionAutosave writes it.
QByteArray markerOf(const ProcessIdentity& who) {
    return QStringLiteral("{\"pid\":%1,\"start_ticks\":%2,\"boot_id\":\"%3\",\"started\":"
                          "\"2024-05-01T10:00:00.000\"}\n")
        .arg(who.pid)
        .arg(who.startTicks)
        .arg(who.bootId)
        .toUtf8();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(path));
    file.write(bytes);
}

/// A sessions folder that cannot be created: its parent in `dir` is a regular file. Empty on failure.
QString uncreatableFolderIn(const QTemporaryDir& dir) {
    QFile blocker(dir.filePath("not-a-folder"));
    if (!blocker.open(QIODevice::WriteOnly)) return {};
    return dir.filePath("not-a-folder/sessions");
}
} // namespace

class AutosaveTest : public QObject {
    Q_OBJECT
  private slots:
    void anUncreatableFolderIsShownWithItsPathAndTheSessionStaysInMemory() {
        QTemporaryDir dir;
        const QString sessions = uncreatableFolderIn(dir);
        QVERIFY(!sessions.isEmpty());
        ScopedEnv env("RDMALAB_SESSIONS_DIR", sessions.toUtf8());
        MainWindow window(StartOptions{});
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.engine()->isRunning(), 20000);
        window.controller()->startLive("write", 64, "hello");
        auto* warning = windowParts(window).autosaveWarning();
        QVERIFY(warning);
        QTRY_VERIFY_WITH_TIMEOUT(warning->isVisible(), 20000);
        QVERIFY2(warning->text().contains(sessions), qPrintable(warning->text()));
        QVERIFY2(warning->text().contains("Not a directory"), qPrintable(warning->text()));
        QVERIFY2(warning->text().contains("Save trace"), qPrintable(warning->text()));
        // The events are still there, and File ▸ Save trace puts them somewhere else.
        const std::size_t held = window.controller()->sessionEvents().size();
        QVERIFY(held > 0);
        const QString elsewhere = dir.filePath("saved.jsonl");
        QVERIFY(window.saveTrace(elsewhere));
        TraceFileError error;
        const auto saved = readTraceFile(elsewhere, error);
        QVERIFY2(saved, qPrintable(error.toString()));
        QCOMPARE(saved->size(), window.controller()->sessionEvents().size());
    }

    void aMeasurementThatCannotBeAutosavedSaysSo() {
        QTemporaryDir dir;
        const QString sessions = uncreatableFolderIn(dir);
        QVERIFY(!sessions.isEmpty());
        ScopedEnv env("RDMALAB_SESSIONS_DIR", sessions.toUtf8());
        BenchStartOptions options;
        options.kinds = {"tcp_lat"};
        options.sizes = {64};
        options.iters = 50;
        options.autoplay = true;
        BenchWindow window(options);
        window.show();
        auto* warning = windowParts(window).autosaveWarning();
        QVERIFY(warning);
        QTRY_VERIFY_WITH_TIMEOUT(warning->isVisible(), 60000);
        QVERIFY2(warning->text().contains(sessions), qPrintable(warning->text()));
        QVERIFY2(warning->text().contains("Not a directory"), qPrintable(warning->text()));
        QVERIFY(!window.session()->events().empty());
    }

    void aFullDiskIsReportedAndNothingMoreIsWritten() {
        const auto events = recording("lesson-send.jsonl");
        SessionAutosave autosave;
        autosave.setFile("/dev/full");
        QVERIFY(!autosave.append(events));
        QVERIFY(autosave.failed());
        QVERIFY2(autosave.error().contains("/dev/full"), qPrintable(autosave.error()));
        QVERIFY2(autosave.error().contains("No space left on device"), qPrintable(autosave.error()));
        QVERIFY(!autosave.append(events)); // stays failed for this session
    }

    void aDiskFillingMidSessionLeavesOnlyWholeLines() {
        QTemporaryDir dir;
        const auto events = recording("lesson-write.jsonl");
        const std::vector<TraceEvent> first(events.begin(), events.begin() + 10);
        const std::vector<TraceEvent> rest(events.begin() + 10, events.end());
        SessionAutosave autosave(dir.path());
        QVERIFY2(autosave.append(first), qPrintable(autosave.error()));
        const QString path = autosave.path();
        const QByteArray before = contents(path);
        {
            // Room for a bit more than one line: the next batch stops in the middle of a line.
            FileSizeLimit limit(static_cast<rlim_t>(before.size() + 100));
            QVERIFY(!autosave.append(rest));
        }
        QVERIFY2(autosave.error().contains(path), qPrintable(autosave.error()));
        QVERIFY2(autosave.error().contains("File too large"), qPrintable(autosave.error()));
        QCOMPARE(contents(path), before); // the cut line is gone: whole lines only
        TraceFileError error;
        const auto kept = readTraceFile(path, error);
        QVERIFY2(kept, qPrintable(error.toString()));
        QCOMPARE(kept->size(), first.size());
        QVERIFY(!autosave.append(rest)); // no gap in the file: it stops
        QCOMPARE(contents(path), before);
        autosave.restart(); // the next session gets a file of its own
        QVERIFY2(autosave.append(events), qPrintable(autosave.error()));
        QVERIFY(autosave.path() != path);
    }

    void sessionsStartedTogetherGetFilesOfTheirOwn() {
        QTemporaryDir dir;
        const auto events = recording("lesson-read.jsonl");
        std::vector<std::unique_ptr<SessionAutosave>> sessions;
        std::set<QString> paths;
        for (std::size_t i = 0; i < 20; ++i) { // well within one second, most within one millisecond
            sessions.push_back(std::make_unique<SessionAutosave>(dir.path()));
            QVERIFY2(sessions.back()->append(std::span(&events[i], 1)), qPrintable(sessions.back()->error()));
            paths.insert(sessions.back()->path());
        }
        QCOMPARE(paths.size(), sessions.size());
        for (std::size_t i = 0; i < sessions.size(); ++i) {
            TraceFileError error;
            const auto kept = readTraceFile(sessions[i]->path(), error);
            QVERIFY2(kept, qPrintable(error.toString()));
            QCOMPARE(kept->size(), std::size_t(1));
            QCOMPARE(kept->front().seq, events[i].seq);
        }
        QVERIFY2(sessions.front()->path().contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(sessions.front()->path()));
    }

    void savingIntoAReadOnlyFolderFailsAndKeepsTheEarlierFile() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("read-only");
        QVERIFY(QDir().mkpath(folder));
        const QString path = folder + "/trace.jsonl";
        QCOMPARE(writeTraceFile(path, recording("lesson-send.jsonl")), QString());
        const QByteArray earlier = contents(path);
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
        QString error;
        {
            WithoutPermissionOverride asAnOrdinaryUser;
            QFile probe(folder + "/probe");
            if (probe.open(QIODevice::WriteOnly)) QSKIP("cannot make a folder read-only for this process");
            error = writeTraceFile(path, recording("lesson-write.jsonl"));
        }
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY2(error.contains(path), qPrintable(error));
        QCOMPARE(contents(path), earlier);
    }

    void aSessionThatEndsNormallyLeavesNoMarker() {
        QTemporaryDir dir;
        const auto events = recording("lesson-write.jsonl");
        QString second;
        {
            SessionAutosave autosave(dir.path());
            QVERIFY2(autosave.append({events.begin(), events.begin() + 5}), qPrintable(autosave.error()));
            const QString marker = autosave.markerPath();
            QCOMPARE(marker, autosave.path() + ".open");
            const auto json = nlohmann::json::parse(contents(marker).toStdString());
            QCOMPARE(json.at("pid").get<qint64>(), QCoreApplication::applicationPid());
            QVERIFY(json.at("start_ticks").get<quint64>() > 0);
            QCOMPARE(json.at("start_ticks").get<quint64>(), ProcessIdentity::current().startTicks);
            QVERIFY(findUnfinishedSessions(dir.path()).empty()); // this process runs: never offered
            autosave.restart();
            QVERIFY(!QFile::exists(marker));
            QVERIFY(autosave.append(events));
            second = autosave.markerPath();
            QVERIFY(QFile::exists(second));
        }
        QVERIFY(!QFile::exists(second)); // destroyed: the session ended normally
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
        QVERIFY(findUnfinishedSessions(dir.path()).empty());
    }

    void aTrailingPartialLineOpensWithTheCompleteEvents() {
        QTemporaryDir dir;
        const auto lines = recordingLines("lesson-write.jsonl", 21);
        QByteArray whole;
        for (qsizetype i = 0; i < 20; ++i)
            whole += lines[i];
        const QString cut = dir.filePath("cut.jsonl");
        writeFile(cut, whole + lines[20].left(lines[20].size() / 2));
        TraceFileError error;
        QString note;
        const auto events = readTraceFile(cut, error, &note);
        QVERIFY2(events, qPrintable(error.toString()));
        QCOMPARE(events->size(), std::size_t(20));
        QVERIFY2(note.contains("line 21 was incomplete") && note.contains("20 complete events"),
                 qPrintable(note));
        // A bad last line that ends with its newline was written whole: that is a bad file, not a cut one.
        const QString bad = dir.filePath("bad.jsonl");
        writeFile(bad, whole + lines[20].left(lines[20].size() / 2) + "\n");
        QVERIFY(!readTraceFile(bad, error, &note));
        QCOMPARE(error.line, std::size_t(21));
        // Nothing complete at all: refused.
        const QString only = dir.filePath("only.jsonl");
        writeFile(only, lines[0].left(30));
        QVERIFY(!readTraceFile(only, error, &note));
        // A whole file has no note.
        QVERIFY(readTraceFile(kData + "lesson-send.jsonl", error, &note));
        QVERIFY(note.isEmpty());
    }

    void anUnfinishedSessionIsOfferedAndReopensAsAReplay() {
        QTemporaryDir dir;
        const auto lines = recordingLines("lesson-write.jsonl", 21);
        const QString path =
            writeUnfinishedSession(dir.path(), "20240501-100000-000-1", lines.first(20), lines[20].left(40),
                                   deadProcessId(), "2024-05-01T10:00:00.000");
        ScopedEnv env("RDMALAB_SESSIONS_DIR", dir.path().toUtf8());
        MainWindow window(StartOptions{});
        window.show();
        auto* banner = mainWindow(window).recoveryBanner();
        auto* message = mainWindow(window).recoveryMessage();
        auto* reopen = mainWindow(window).reopenSessionButton();
        QVERIFY(banner && message && reopen && mainWindow(window).dismissSessionButton());
        QVERIFY(banner->isVisible());
        QVERIFY2(message->text().contains("The previous session (started ") &&
                     message->text().contains("20 events) ended without being closed") &&
                     message->text().contains(path) && message->text().contains("incomplete"),
                 qPrintable(message->text()));
        reopen->click();
        auto* controller = window.controller();
        QTRY_COMPARE(controller->mode(), LessonController::Mode::Replay); // read on another thread
        const auto expected = recording("lesson-write.jsonl");
        QCOMPARE(controller->replayEvents().size(), std::size_t(20));
        for (std::size_t i = 0; i < 20; ++i)
            QCOMPARE(controller->replayEvents()[i].seq, expected[i].seq);
        QVERIFY(!banner->isVisible());
        QVERIFY(QFile::exists(path));            // the recording stays
        QVERIFY(!QFile::exists(path + ".open")); // and is not offered again
        auto* label = mainWindow(window).sessionLabel();
        QVERIFY2(label->text().contains("REPLAY") && label->text().contains("live session that ended without "
                                                                            "being closed"),
                 qPrintable(label->text()));
        MainWindow again(StartOptions{});
        again.show();
        QVERIFY(again.unfinishedSessions().empty());
        QVERIFY(!mainWindow(again).recoveryBanner()->isVisible());
    }

    void dismissKeepsTheFileAndOffersTheNext() {
        QTemporaryDir dir;
        const auto lines = recordingLines("lesson-send.jsonl", 12);
        const qint64 dead = deadProcessId();
        const QString older = writeUnfinishedSession(dir.path(), "20240501-090000-000-1", lines.first(5), {},
                                                     dead, "2024-05-01T09:00:00.000");
        const QString newer = writeUnfinishedSession(dir.path(), "20240501-100000-000-1", lines, {}, dead,
                                                     "2024-05-01T10:00:00.000");
        ScopedEnv env("RDMALAB_SESSIONS_DIR", dir.path().toUtf8());
        MainWindow window(StartOptions{});
        window.show();
        auto* banner = mainWindow(window).recoveryBanner();
        auto* message = mainWindow(window).recoveryMessage();
        auto* dismiss = mainWindow(window).dismissSessionButton();
        QVERIFY(banner->isVisible());
        QVERIFY2(message->text().contains(newer) && message->text().contains("12 events") &&
                     message->text().contains("1 more"),
                 qPrintable(message->text()));
        dismiss->click();
        QVERIFY(banner->isVisible());
        QVERIFY2(message->text().contains(older) && message->text().contains("5 events") &&
                     !message->text().contains("more"),
                 qPrintable(message->text()));
        dismiss->click();
        QVERIFY(!banner->isVisible());
        QVERIFY(window.controller()->mode() != LessonController::Mode::Replay);
        QCOMPARE(contents(newer), lines.join()); // kept as it was
        QVERIFY(QFile::exists(older));
        QVERIFY(!QFile::exists(newer + ".open") && !QFile::exists(older + ".open"));
        MainWindow again(StartOptions{});
        QVERIFY(again.unfinishedSessions().empty());
    }

    /// The lab window and the workbench write their live sessions as they happen: killed with SIGKILL, the
    /// app leaves the run in the sessions folder, and the next start offers it.
    void aLabRunAndAWorkbenchSessionSurviveTheAppBeingKilled() {
        const struct {
            QStringList arguments;
            QString prefix;
        } windows[] = {{{"--lab", "hold-a-while", "--autoplay"}, "lab-"}, {{"--workbench"}, "workbench-"}};
        for (const auto& w : windows) {
            QTemporaryDir dir;
            // A lab of the user's own whose one step waits (no device needed): killed in the middle of it.
            QVERIFY(QDir().mkpath(dir.filePath("data/rdmalab/labs")));
            QFile lab(dir.filePath("data/rdmalab/labs/hold-a-while.yaml"));
            QVERIFY(lab.open(QIODevice::WriteOnly));
            lab.write(
                "lab: 1\nid: hold-a-while\nchapter: 25\norder: 991\n"
                "title: {en: \"Test: a long wait\", zh: \"测试：长时间等待\"}\nlevel: basic\nminutes: 1\n"
                "objectives:\n  - {en: \"Wait\", zh: \"等待\"}\n"
                "steps:\n  - {id: hold, do: wait, time: 600s, text: {en: \"Waiting.\", zh: \"等待中。\"}}\n");
            lab.close();
            QProcess app;
            auto environment = QProcessEnvironment::systemEnvironment();
            environment.insert("QT_QPA_PLATFORM", "offscreen");
            environment.insert("XDG_DATA_HOME", dir.filePath("data"));
            environment.insert("RDMALAB_SESSIONS_DIR", dir.filePath("sessions"));
            app.setProcessEnvironment(environment);
            app.start(RDMALAB_APP_PATH, w.arguments + QStringList{"--engine-program", RDMALAB_CLI_PATH});
            QVERIFY(app.waitForStarted(10000));
            // The engine's session event and its answer to lab.start or work.start, on disk.
            QString file;
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    const auto files =
                        QDir(dir.filePath("sessions")).entryList({w.prefix + "*.jsonl"}, QDir::Files);
                    if (files.size() != 1) return false;
                    file = dir.filePath("sessions/" + files.front());
                    return contents(file).count('\n') >= 2;
                }(),
                60000);
            QVERIFY(QFile::exists(file + ".open")); // the marker of a session that is still running
            app.kill();
            QVERIFY(app.waitForFinished(10000));
            const auto found = findUnfinishedSessions(dir.filePath("sessions"));
            QCOMPARE(found.size(), std::size_t(1));
            QCOMPARE(found[0].path, file);
            QVERIFY2(found[0].events >= 2 && found[0].problem.isEmpty(), qPrintable(found[0].problem));
            ScopedEnv env("RDMALAB_SESSIONS_DIR", dir.filePath("sessions").toUtf8());
            MainWindow window(StartOptions{});
            window.show();
            QVERIFY(mainWindow(window).recoveryBanner()->isVisible());
            const QString message = mainWindow(window).recoveryMessage()->text();
            QVERIFY2(message.contains(file), qPrintable(message));
        }
    }

    void aSessionOfAnInstanceThatStillRunsIsNeverOffered() {
        QTemporaryDir dir;
        const auto lines = recordingLines("lesson-send.jsonl", 8);
        // Another instance, alive: a child process stands in for it.
        QProcess other;
        other.start("sleep", {"60"});
        QVERIFY(other.waitForStarted());
        const QString path = writeUnfinishedSession(dir.path(), "20240501-100000-000-1", lines, {},
                                                    other.processId(), "2024-05-01T10:00:00.000");
        QVERIFY(findUnfinishedSessions(dir.path()).empty());
        ScopedEnv env("RDMALAB_SESSIONS_DIR", dir.path().toUtf8());
        {
            MainWindow window(StartOptions{});
            window.show();
            QVERIFY(!mainWindow(window).recoveryBanner()->isVisible());
        }
        other.kill();
        QVERIFY(other.waitForFinished());
        auto found = findUnfinishedSessions(dir.path());
        QCOMPARE(found.size(), std::size_t(1)); // gone now: offered
        QCOMPARE(found[0].path, path);
        QCOMPARE(found[0].events, std::size_t(8));
        QVERIFY(forgetUnfinishedSession(found[0]));

        // This very process, named exactly: running, never offered. The same pid with another start time
        // or from another boot is a process that has ended (its pid was reused).
        const ProcessIdentity self = ProcessIdentity::current();
        QVERIFY(self.isRunning());
        const QString mine = writeUnfinishedSession(dir.path(), "20240501-110000-000-2", lines, {}, 1, {});
        writeFile(mine + ".open", markerOf(self));
        QVERIFY(findUnfinishedSessions(dir.path()).empty());
        ProcessIdentity reused = self;
        reused.startTicks += 1;
        QVERIFY(!reused.isRunning());
        writeFile(mine + ".open", markerOf(reused));
        QCOMPARE(findUnfinishedSessions(dir.path()).size(), std::size_t(1));
        ProcessIdentity lastBoot = self;
        lastBoot.bootId = "00000000-0000-0000-0000-000000000000";
        QVERIFY(!lastBoot.isRunning());
        writeFile(mine + ".open", markerOf(lastBoot));
        QCOMPARE(findUnfinishedSessions(dir.path()).size(), std::size_t(1));
        // A marker that is not ours to read is left alone.
        writeFile(mine + ".open", "not json");
        QVERIFY(findUnfinishedSessions(dir.path()).empty());
    }
};

QTEST_MAIN(AutosaveTest)
#include "tst_autosave.moc"
