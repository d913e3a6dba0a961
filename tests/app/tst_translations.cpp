// The Simplified Chinese translation (app/translations/rdmalab_zh_CN.ts) is complete and exact, every
// user-visible string of the app is in it, and the windows switch language live.
#include "labwindow.h"
#include "language.h"
#include "mainwindow.h"
#include "testutil.hpp"
#include "windowdrivers.h"
#include "workbenchwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFontDatabase>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRawFont>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>

using namespace rdmalab::app;
using rdmalab::test::mainWindow;
using rdmalab::test::windowParts;

namespace {

const QString kTsFile = (RDMALAB_SOURCE_DIR + QStringLiteral("/app/translations/rdmalab_zh_CN.ts"));

struct Message {
    QString context, source, type; ///< type: the translation's type attribute ("" when finished)
    QStringList translations;      ///< one, or the numerus forms
    bool numerus = false;
};

std::vector<Message> readTs(const QString& path, QString* error) {
    std::vector<Message> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return out;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            m = Message();
            m.context = context;
            m.numerus = xml.attributes().value("numerus") == QLatin1String("yes");
        } else if (name == QLatin1String("source")) {
            m.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            m.type = xml.attributes().value("type").toString();
            if (m.numerus) {
                while (xml.readNextStartElement())
                    m.translations << xml.readElementText(); // numerusform
            } else {
                m.translations << xml.readElementText();
            }
            out.push_back(m);
        }
    }
    if (xml.hasError()) *error = QStringLiteral("%1: %2").arg(path, xml.errorString());
    return out;
}

/// The placeholders of a text, sorted: %1…%99 and %n (each once per occurrence).
QStringList placeholders(const QString& text) {
    QStringList out;
    static const QRegularExpression re(QStringLiteral("%(\\d{1,2}|n)"));
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    out.sort();
    return out;
}

/// The HTML tags of a text (names only), sorted.
QStringList tags(const QString& text) {
    QStringList out;
    static const QRegularExpression re(QStringLiteral("</?([a-zA-Z][a-zA-Z0-9]*)[^>]*>"));
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0).section(QLatin1Char(' '), 0, 0).remove(QLatin1Char('>'));
    out.sort();
    return out;
}

QString key(const Message& m) {
    return m.context + QStringLiteral(" | ") + m.source;
}

/// The first widget or action of `window` with this object name, with its text.
QString textOf(QWidget* window, const char* name) {
    if (auto* menu = window->findChild<QMenu*>(name)) return menu->title();
    if (auto* box = window->findChild<QGroupBox*>(name)) return box->title();
    if (auto* button = window->findChild<QPushButton*>(name)) return button->text();
    if (auto* label = window->findChild<QLabel*>(name)) return label->text();
    if (auto* action = window->findChild<QAction*>(name)) return action->text();
    return QStringLiteral("<no %1>").arg(QLatin1String(name));
}

bool hasChinese(const QString& text) {
    return std::any_of(text.begin(), text.end(),
                       [](QChar c) { return c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff; });
}

void chooseLanguage(QWidget* window, const char* action) {
    auto* a = window->findChild<QAction*>(action);
    QVERIFY2(a, action);
    a->trigger();
    QCoreApplication::processEvents(); // the LanguageChange events are posted to the windows
    QCoreApplication::processEvents();
}

/// Switches `window` to Chinese and back through its View ▸ Language menu; each named widget must show
/// Chinese, then its English text again.
void checkSwitching(QWidget* window, const std::vector<const char*>& names) {
    QVERIFY(windowParts(*window).languageMenu());
    std::vector<QString> english;
    for (const char* n : names) {
        english.push_back(textOf(window, n));
        QVERIFY2(!hasChinese(english.back()), qPrintable(QStringLiteral("%1: %2").arg(n, english.back())));
    }
    chooseLanguage(window, "languageChineseAction");
    QCOMPARE(Language::instance()->current(), QStringLiteral("zh"));
    QVERIFY(windowParts(*window).languageChineseAction()->isChecked());
    for (const char* n : names)
        QVERIFY2(hasChinese(textOf(window, n)),
                 qPrintable(QStringLiteral("%1: %2").arg(n, textOf(window, n))));
    chooseLanguage(window, "languageEnglishAction");
    QCOMPARE(Language::instance()->current(), QStringLiteral("en"));
    for (std::size_t i = 0; i < names.size(); ++i)
        QCOMPARE(textOf(window, names[i]), english[i]);
}

} // namespace

class TranslationsTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        // The language menus remember the choice (QSettings): in a directory of the test's own.
        QVERIFY(config_.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(config_.path()));
    }

    // Every message of the committed .ts is translated, and its placeholders and tags are the source's.
    void everyMessageIsTranslated() {
        QString error;
        const auto messages = readTs(kTsFile, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(messages.size() > 300);
        QStringList problems;
        for (const auto& m : messages) {
            const QString where = key(m);
            if (m.type == QLatin1String("unfinished")) problems << "unfinished: " + where;
            if (m.type == QLatin1String("vanished") || m.type == QLatin1String("obsolete"))
                problems << m.type + ": " + where;
            if (m.translations.isEmpty() || std::any_of(m.translations.begin(), m.translations.end(),
                                                        [](const QString& t) { return t.isEmpty(); }))
                problems << "empty: " + where;
            for (const auto& t : m.translations) {
                if (placeholders(t) != placeholders(m.source))
                    problems << QStringLiteral("placeholders %1 instead of %2: %3")
                                    .arg(placeholders(t).join(','), placeholders(m.source).join(','), where);
                if (tags(t) != tags(m.source)) problems << QStringLiteral("HTML tags differ: %1").arg(where);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    // lupdate over app/ finds no string that the committed .ts lacks or leaves untranslated: a string added
    // to the app without a Chinese translation fails here.
    void everyStringOfTheAppHasAChineseTranslation() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(RDMALAB_LUPDATE,
                      {QStringLiteral("-silent"), QStringLiteral("-recursive"),
                       (RDMALAB_SOURCE_DIR + QStringLiteral("/app")), QStringLiteral("-extensions"),
                       QStringLiteral("cpp,h"), QStringLiteral("-locations"), QStringLiteral("none"),
                       QStringLiteral("-ts"), fresh});
        QVERIFY2(lupdate.waitForFinished(120000), qPrintable(RDMALAB_LUPDATE));
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());
        QString error;
        const auto found = readTs(fresh, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(found.size() > 300);
        QSet<QString> translated;
        for (const auto& m : readTs(kTsFile, &error))
            if (m.type.isEmpty() && !m.translations.isEmpty() && !m.translations.first().isEmpty())
                translated.insert(key(m));
        QStringList missing;
        for (const auto& m : found)
            if (!translated.contains(key(m))) missing << key(m);
        QVERIFY2(
            missing.isEmpty(),
            qPrintable(QStringLiteral("%1 strings of the app have no Chinese translation in %2 (run `cmake "
                                      "--build --preset dev --target update-translations`, then translate "
                                      "them):\n%3")
                           .arg(missing.size())
                           .arg(kTsFile, missing.join('\n'))));
    }

    // Every character of every string and translation has a glyph in a font the project installs
    // (install-deps.sh: fonts-dejavu-core, fonts-wqy-microhei): no string shows as a box on a machine set
    // up by the project's own scripts. (U+23F8, the pause sign, is in neither.)
    void everyCharacterHasAGlyph() {
        QString error;
        const auto messages = readTs(kTsFile, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        std::vector<QRawFont> fonts;
        for (const QString& family : QFontDatabase::families())
            if (family.contains(QLatin1String("DejaVu")) || family.contains(QLatin1String("WenQuanYi")))
                for (const QString& style : QFontDatabase::styles(family)) {
                    QRawFont raw = QRawFont::fromFont(QFontDatabase::font(family, style, 12));
                    if (raw.isValid()) fonts.push_back(raw);
                }
        QVERIFY2(fonts.size() >= 2, "the fonts install-deps.sh installs are missing");
        QMap<uint, QString> missing;
        for (const auto& m : messages) {
            QStringList texts = m.translations;
            texts << m.source;
            for (const QString& text : texts)
                for (const uint c : text.toUcs4()) {
                    if (c < 0x20 || c == 0x200b || missing.contains(c)) continue;
                    if (std::none_of(fonts.begin(), fonts.end(),
                                     [c](const QRawFont& f) { return f.supportsCharacter(c); }))
                        missing.insert(c, key(m));
                }
        }
        // The labs' texts are shown in the same windows.
        QDirIterator labs((RDMALAB_SOURCE_DIR + QStringLiteral("/labs")), {QStringLiteral("*.yaml")},
                          QDir::Files, QDirIterator::Subdirectories);
        while (labs.hasNext()) {
            QFile file(labs.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            for (const uint c : QString::fromUtf8(file.readAll()).toUcs4()) {
                if (c < 0x20 || missing.contains(c)) continue;
                if (std::none_of(fonts.begin(), fonts.end(),
                                 [c](const QRawFont& f) { return f.supportsCharacter(c); }))
                    missing.insert(c, file.fileName());
            }
        }
        QStringList problems;
        for (auto it = missing.begin(); it != missing.end(); ++it)
            problems << QStringLiteral("U+%1 in %2").arg(it.key(), 4, 16, QLatin1Char('0')).arg(it.value());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void theTranslationIsEmbedded() {
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/rdmalab_zh_CN.qm")));
        Language::instance()->set(QStringLiteral("zh"));
        QCOMPARE(QCoreApplication::translate("rdmalab::app::MainMenus", "&File"), QStringLiteral("文件(&F)"));
        Language::instance()->set(QStringLiteral("en"));
        QCOMPARE(QCoreApplication::translate("rdmalab::app::MainMenus", "&File"), QStringLiteral("&File"));
    }

    void theMainWindowSwitchesLive() {
        StartOptions options;
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli");
        MainWindow window(options);
        window.show();
        // Without an engine the session line settles on saying so (then it must follow the language).
        QTRY_COMPARE(mainWindow(window).sessionLabel()->text(),
                     QStringLiteral("The engine process stopped."));
        checkSwitching(&window, {"fileMenu", "viewMenu", "languageMenu", "playButton", "measureButton",
                                 "timelineLabel", "sessionLabel"});
    }

    void theLabWindowSwitchesLive() {
        LabWindowOptions options;
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli");
        LabWindow window(options);
        window.show();
        checkSwitching(&window, {"labViewMenu", "labStart", "labExport", "labHeader"});
    }

    void theWorkbenchWindowSwitchesLive() {
        WorkbenchWindowOptions options;
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli");
        WorkbenchWindow window(options);
        window.show();
        checkSwitching(&window, {"workbenchViewMenu", "buildPair", "pairBox", "resetAll"});
    }

    // Written to /tmp for a person to look at (docs/screenshots/lab-browser-zh.png is one); the test checks
    // only that the Chinese window renders.
    void labBrowserRendersInChinese() {
        Language::instance()->set(QStringLiteral("zh"));
        LabWindowOptions options;
        options.engineProgram = QStringLiteral("/nonexistent/rdmalab-cli");
        options.language = QStringLiteral("zh");
        LabWindow window(options);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.selectLab(QStringLiteral("write")));
        QTest::qWait(100);
        const QString path = QDir::temp().filePath(QStringLiteral("rdmalab-lab-browser-zh.png"));
        QVERIFY(window.grab().save(path, "PNG"));
        Language::instance()->set(QStringLiteral("en"));
    }

  private:
    QTemporaryDir config_;
};

QTEST_MAIN(TranslationsTest)
#include "tst_translations.moc"
