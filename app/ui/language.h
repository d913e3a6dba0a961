// The app's one language: English (the source texts) or Simplified Chinese (app/translations, embedded as
// :/i18n/rdmalab_zh_CN.qm). Switching installs or removes the app-wide QTranslator, so every widget gets a
// QEvent::LanguageChange and re-sets its texts (each window's retranslateUi()); the lesson and lab texts,
// which come in both languages from the YAML files, follow changed().
#pragma once

#include <QObject>
#include <QString>

class QActionGroup;
class QMenu;
class QTranslator;

namespace rdmalab::app {

class Language : public QObject {
    Q_OBJECT
  public:
    /// The app's language state (created on first use, owned by the application object when there is one).
    static Language* instance();

    /// "en" or "zh".
    QString current() const { return current_; }
    bool chinese() const { return current_ == QLatin1String("zh"); }

    /// "zh" when the system locale is Chinese, else "en".
    static QString systemLanguage();
    /// The language to start with: `commandLine` ("en" or "zh") when given, else the choice remembered from
    /// the last run (QSettings), else systemLanguage().
    static QString startLanguage(const QString& commandLine);
    /// "zh" for "zh", "zh_CN", "chinese"…; "en" for anything else.
    static QString normalized(const QString& language);
    /// True for the names --lang accepts: en, english, zh, zh_CN (any zh_…), chinese, in any case.
    static bool isKnown(const QString& language);

    /// Switches the whole app to `language` ("en" or "zh"): installs or removes the translator and emits
    /// changed(). With `remember`, the choice is saved for the next start.
    void set(const QString& language, bool remember = false);

    /// Adds "Language ▸ English / 简体中文" (checkable, exclusive; objectNames languageMenu,
    /// languageEnglishAction, languageChineseAction) to `menu`. The submenu follows the language, whoever
    /// switches it, and a choice in it is remembered.
    QMenu* addMenu(QMenu* menu);

  signals:
    void changed(const QString& language);

  private:
    explicit Language(QObject* parent);

    QString current_ = QStringLiteral("en");
    QTranslator* translator_ = nullptr; ///< installed while the language is Chinese
};

} // namespace rdmalab::app
