#include "language.h"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QEvent>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QTranslator>

namespace rdmalab::app {

namespace {

constexpr auto kSettingsKey = "ui/language";

/// The Language submenu: its title follows the language; its entries are named in their own language.
class LanguageMenu : public QMenu {
  public:
    explicit LanguageMenu(QWidget* parent) : QMenu(parent) {
        setObjectName(QStringLiteral("languageMenu"));
        retranslateUi();
    }

  protected:
    void changeEvent(QEvent* event) override {
        if (event->type() == QEvent::LanguageChange) retranslateUi();
        QMenu::changeEvent(event);
    }

  private:
    void retranslateUi() { setTitle(QCoreApplication::translate("Language", "&Language")); }
};

} // namespace

Language::Language(QObject* parent) : QObject(parent) {}

Language* Language::instance() {
    static Language* language = nullptr;
    if (!language) {
        language = new Language(QCoreApplication::instance());
        if (QCoreApplication::instance())
            QObject::connect(QCoreApplication::instance(), &QObject::destroyed, [] { language = nullptr; });
    }
    return language;
}

QString Language::normalized(const QString& language) {
    return language.trimmed().toLower().startsWith(QLatin1String("zh")) ||
                   language.trimmed().toLower() == QLatin1String("chinese")
               ? QStringLiteral("zh")
               : QStringLiteral("en");
}

bool Language::isKnown(const QString& language) {
    const QString name = language.trimmed().toLower();
    return name == QLatin1String("en") || name == QLatin1String("english") || name == QLatin1String("zh") ||
           name.startsWith(QLatin1String("zh_")) || name.startsWith(QLatin1String("zh-")) ||
           name == QLatin1String("chinese");
}

QString Language::systemLanguage() {
    return QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh") : QStringLiteral("en");
}

QString Language::startLanguage(const QString& commandLine) {
    if (!commandLine.isEmpty()) return normalized(commandLine);
    const QString remembered = QSettings().value(QLatin1String(kSettingsKey)).toString();
    if (!remembered.isEmpty()) return normalized(remembered);
    return systemLanguage();
}

void Language::set(const QString& language, bool remember) {
    const QString chosen = normalized(language);
    if (remember) QSettings().setValue(QLatin1String(kSettingsKey), chosen);
    if (chosen == current_) return;
    current_ = chosen;
    if (chosen == QLatin1String("zh")) {
        if (!translator_) {
            translator_ = new QTranslator(this);
            if (!translator_->load(QStringLiteral(":/i18n/rdmalab_zh_CN.qm")))
                qWarning("rdmalab: the Chinese translation :/i18n/rdmalab_zh_CN.qm is missing");
        }
        QCoreApplication::installTranslator(translator_); // sends LanguageChange to every widget
    } else if (translator_) {
        QCoreApplication::removeTranslator(translator_);
    }
    emit changed(current_);
}

QMenu* Language::addMenu(QMenu* menu) {
    auto* sub = new LanguageMenu(menu);
    menu->addMenu(sub);
    auto* group = new QActionGroup(sub);
    group->setExclusive(true);
    // Each language is named in itself, so that someone who cannot read the current one finds theirs.
    auto* english = sub->addAction(QStringLiteral("English"));
    english->setObjectName(QStringLiteral("languageEnglishAction"));
    auto* chinese = sub->addAction(QStringLiteral("简体中文"));
    chinese->setObjectName(QStringLiteral("languageChineseAction"));
    for (QAction* a : {english, chinese}) {
        a->setCheckable(true);
        group->addAction(a);
    }
    auto check = [english, chinese](const QString& language) {
        (language == QLatin1String("zh") ? chinese : english)->setChecked(true);
    };
    check(current_);
    connect(this, &Language::changed, sub, check);
    connect(english, &QAction::triggered, this, [this] { set(QStringLiteral("en"), true); });
    connect(chinese, &QAction::triggered, this, [this] { set(QStringLiteral("zh"), true); });
    return sub;
}

} // namespace rdmalab::app
