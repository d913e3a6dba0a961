// The main window's two toolbars: the lesson (which one, its size and message) and the player (play,
// pause, step, reset, the animation speed, the interface's language, the measurements).
#pragma once

#include "lessons.h"

#include <QObject>

#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QMainWindow;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolBar;

namespace rdmalab::app {

/// "lessonToolBar" ("lessonCombo", "sizeSpin", "messageEdit") and "playerToolBar" ("playButton",
/// "pauseButton", "backButton", "stepButton", "skipToEndButton" (replays only), "resetButton", "speedSlider",
/// "languageCombo", "measureButton"), on one row
/// when the window is wide enough for both, else on two (place()), rather than behind a » menu.
class LessonToolBars : public QObject {
    Q_OBJECT
  public:
    /// Adds both toolbars to `window`. `lessons` (kept alive by the window) are the choice, `lesson` the
    /// id chosen first, `language` the language of their titles.
    LessonToolBars(QMainWindow* window, const std::vector<Lesson>& lessons, const QString& lesson,
                   const QString& language);

    /// The lesson chosen, or null when there is none.
    const Lesson* currentLesson() const;
    bool hasLesson(const QString& id) const;
    /// Chooses lesson `id` without announcing it (a replay of a recording of it: nothing starts).
    void showLessonQuietly(const QString& id);
    int size() const;
    QString message() const;
    /// The speed slider: 1 (slow) to 10 (fast).
    int speed() const;
    /// The pause between steps while playing at `speed` (1 slow .. 10 fast).
    static int stepDelayMs(int speed);
    /// How fast the picture animates at `speed` (1 slow .. 10 fast): 1 is its normal pace.
    static double animationSpeed(int speed) { return 0.5 + speed * 0.25; }
    /// The lessons' titles and the language choice follow the app's language.
    void setLanguage(const QString& language);
    void enablePlayer(bool step, bool play, bool pause, bool reset);
    /// "Back": enabled while the picture can show an earlier step.
    void enableBack(bool enabled);
    /// "To the end": shown for a replay only, enabled while it has steps left.
    void showSkipToEnd(bool shown, bool enabled);
    /// One row of toolbars when the window is wide enough for both, else two.
    void place();
    /// The toolbars' texts in the current language (the window calls it on QEvent::LanguageChange).
    void retranslateUi();

  signals:
    void playClicked();
    void pauseClicked();
    void stepClicked();
    void skipToEndClicked();
    void backClicked();
    void resetClicked();
    /// Another lesson was chosen; its size and message are shown.
    void lessonChosen();
    void speedChanged(int speed);
    void measureClicked();

  private:
    void buildLessonBar(const QString& lesson, const QString& language);
    void buildPlayerBar(const QString& language);

    QMainWindow* window_;
    const std::vector<Lesson>& lessons_;
    QToolBar *lessonBar_ = nullptr, *playerBar_ = nullptr;
    QComboBox *lessonCombo_ = nullptr, *languageCombo_ = nullptr;
    QSpinBox* sizeSpin_ = nullptr;
    QLineEdit* messageEdit_ = nullptr;
    QPushButton *playButton_ = nullptr, *pauseButton_ = nullptr, *stepButton_ = nullptr,
                *resetButton_ = nullptr, *measureButton_ = nullptr, *skipButton_ = nullptr,
                *backButton_ = nullptr;
    QAction* skipAction_ = nullptr; ///< the toolbar's action of skipButton_ (hides it)
    QSlider* speedSlider_ = nullptr;
    QLabel *lessonLabel_ = nullptr, *sizeLabel_ = nullptr, *messageLabel_ = nullptr, *speedLabel_ = nullptr;
};

} // namespace rdmalab::app
