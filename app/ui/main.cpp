// rdmalab: the desktop app. It never calls verbs itself: it drives `rdmalab-cli serve --stdio`.
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("rdmalab");
    QApplication::setOrganizationName("rdmalab");
    QApplication::setApplicationVersion(RDMALAB_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("Watch real RDMA operations one verbs call at a time.");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption lesson("lesson", "Lesson to open: send, write or read.", "id", "write");
    QCommandLineOption replay("replay", "Replay a recorded trace (JSON Lines) instead of running live.",
                              "file");
    QCommandLineOption autoplay("autoplay", "Play the lesson to the end without waiting for input.");
    QCommandLineOption screenshot("screenshot", "Save a PNG of the main window when the lesson ends.",
                                  "file");
    QCommandLineOption quit("quit", "Quit when the lesson ends (exit 0 if it verified).");
    QCommandLineOption present("present", "Start in presentation mode (large fonts, high contrast).");
    QCommandLineOption language("lang", "Lesson text language: en or zh.", "lang", "en");
    QCommandLineOption delay("step-delay", "Pause between steps while playing, in ms.", "ms");
    QCommandLineOption engine("engine", "Path of rdmalab-cli (the engine process).", "path");
    parser.addOptions({lesson, replay, autoplay, screenshot, quit, present, language, delay, engine});
    parser.process(app);

    rdmalab::app::StartOptions options;
    options.lesson = parser.value(lesson);
    options.replayFile = parser.value(replay);
    options.autoplay = parser.isSet(autoplay);
    options.screenshot = parser.value(screenshot);
    options.quitWhenDone = parser.isSet(quit);
    options.presentation = parser.isSet(present);
    options.language = parser.value(language) == "zh" ? "zh" : "en";
    options.engineProgram = parser.value(engine);
    if (parser.isSet(delay))
        options.stepDelayMs = parser.value(delay).toInt();
    else if (options.autoplay)
        options.stepDelayMs = 60;
    if (options.autoplay && !parser.isSet(delay)) options.animationSpeed = 4.0; // headless: no slow motion

    rdmalab::app::MainWindow window(options);
    window.show();
    return app.exec();
}
