// The lesson and player toolbars of the main window.
#include "lessontoolbars.h"

#include "language.h"
#include "windowparts.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace rdmalab::app {

LessonToolBars::LessonToolBars(QMainWindow* window, const std::vector<Lesson>& lessons, const QString& lesson,
                               const QString& language)
    : QObject(window), window_(window), lessons_(lessons) {
    buildLessonBar(lesson, language);
    buildPlayerBar(language);
    connect(playButton_, &QPushButton::clicked, this, &LessonToolBars::playClicked);
    connect(pauseButton_, &QPushButton::clicked, this, &LessonToolBars::pauseClicked);
    connect(stepButton_, &QPushButton::clicked, this, &LessonToolBars::stepClicked);
    connect(skipButton_, &QPushButton::clicked, this, &LessonToolBars::skipToEndClicked);
    connect(backButton_, &QPushButton::clicked, this, &LessonToolBars::backClicked);
    connect(resetButton_, &QPushButton::clicked, this, &LessonToolBars::resetClicked);
    connect(measureButton_, &QPushButton::clicked, this, &LessonToolBars::measureClicked);
    connect(lessonCombo_, &QComboBox::currentIndexChanged, this, [this] {
        if (const auto* chosen = currentLesson()) {
            sizeSpin_->setValue(chosen->size);
            messageEdit_->setText(chosen->message);
        }
        emit lessonChosen();
    });
    connect(speedSlider_, &QSlider::valueChanged, this, &LessonToolBars::speedChanged);
    // The toolbar's language choice is the app's (View ▸ Language): both switch the whole interface.
    connect(languageCombo_, &QComboBox::currentIndexChanged, this,
            [this] { Language::instance()->set(languageCombo_->currentData().toString(), true); });
}

void LessonToolBars::buildLessonBar(const QString& lesson, const QString& language) {
    auto* bar = lessonBar_ = addFixedToolBar(window_, QString(), "lessonToolBar");
    lessonCombo_ = new ElidingComboBox;
    lessonCombo_->setObjectName("lessonCombo");
    for (const auto& l : lessons_)
        lessonCombo_->addItem(QString::fromStdString(l.lab.title.get(language.toStdString())),
                              QString::fromStdString(l.id()));
    // Long lesson titles must not push the player's buttons off a 1024 px wide window: the combo shows the
    // start of the title, its list the whole of it.
    lessonCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    lessonCombo_->setMinimumContentsLength(16); // with the rest, one row of toolbars at 1280 px
    lessonCombo_->view()->setMinimumWidth(lessonCombo_->view()->sizeHintForColumn(0));
    const int wanted = lessonCombo_->findData(lesson);
    if (wanted >= 0) lessonCombo_->setCurrentIndex(wanted);
    bar->addWidget(lessonLabel_ = new QLabel);
    bar->addWidget(lessonCombo_);
    sizeSpin_ = new QSpinBox;
    sizeSpin_->setObjectName("sizeSpin");
    sizeSpin_->setRange(1, 1 << 20);
    bar->addWidget(sizeLabel_ = new QLabel);
    bar->addWidget(sizeSpin_);
    messageEdit_ = new QLineEdit;
    messageEdit_->setObjectName("messageEdit");
    messageEdit_->setMaximumWidth(140);
    bar->addWidget(messageLabel_ = new QLabel);
    bar->addWidget(messageEdit_);
    if (const auto* chosen = currentLesson()) {
        sizeSpin_->setValue(chosen->size);
        messageEdit_->setText(chosen->message);
    }
}

void LessonToolBars::buildPlayerBar(const QString& language) {
    auto* bar = playerBar_ = addFixedToolBar(window_, QString(), "playerToolBar");
    auto button = [&](QPushButton*& b, const QString& name) {
        b = new QPushButton;
        b->setObjectName(name);
        bar->addWidget(b);
    };
    button(playButton_, "playButton");
    button(pauseButton_, "pauseButton");
    button(backButton_, "backButton");
    backButton_->setEnabled(false);
    button(stepButton_, "stepButton");
    button(skipButton_, "skipToEndButton");
    skipAction_ = bar->actions().back();
    skipAction_->setVisible(false);
    button(resetButton_, "resetButton");
    speedSlider_ = new QSlider(Qt::Horizontal);
    speedSlider_->setObjectName("speedSlider");
    speedSlider_->setRange(1, 10);
    speedSlider_->setValue(5);
    speedSlider_->setMaximumWidth(90);
    bar->addWidget(speedLabel_ = new QLabel);
    bar->addWidget(speedSlider_);
    languageCombo_ = new QComboBox;
    languageCombo_->setObjectName("languageCombo");
    languageCombo_->addItem("English", "en");
    languageCombo_->addItem("简体中文", "zh");
    languageCombo_->setCurrentIndex(language == "zh" ? 1 : 0);
    bar->addSeparator();
    bar->addWidget(languageCombo_);
    bar->addSeparator();
    button(measureButton_, "measureButton");
}

const Lesson* LessonToolBars::currentLesson() const {
    const QString id = lessonCombo_->currentData().toString();
    for (const auto& l : lessons_)
        if (QString::fromStdString(l.id()) == id) return &l;
    return nullptr;
}

bool LessonToolBars::hasLesson(const QString& id) const {
    return lessonCombo_->findData(id) >= 0;
}

void LessonToolBars::showLessonQuietly(const QString& id) {
    const int row = lessonCombo_->findData(id);
    if (row < 0) return;
    const QSignalBlocker quiet(lessonCombo_);
    lessonCombo_->setCurrentIndex(row);
}

int LessonToolBars::size() const {
    return sizeSpin_->value();
}

QString LessonToolBars::message() const {
    return messageEdit_->text();
}

int LessonToolBars::speed() const {
    return speedSlider_->value();
}

int LessonToolBars::stepDelayMs(int speed) {
    static constexpr int kDelays[] = {2500, 1800, 1300, 1000, 700, 500, 350, 220, 120, 40};
    return kDelays[std::clamp(speed, 1, 10) - 1];
}

void LessonToolBars::setLanguage(const QString& language) {
    const int index = language == "zh" ? 1 : 0;
    if (languageCombo_->currentIndex() != index) {
        const QSignalBlocker block(languageCombo_);
        languageCombo_->setCurrentIndex(index);
    }
    for (int i = 0; i < lessonCombo_->count(); ++i)
        for (const auto& l : lessons_)
            if (QString::fromStdString(l.id()) == lessonCombo_->itemData(i).toString())
                lessonCombo_->setItemText(i, QString::fromStdString(l.lab.title.get(language.toStdString())));
}

void LessonToolBars::enablePlayer(bool step, bool play, bool pause, bool reset) {
    stepButton_->setEnabled(step);
    playButton_->setEnabled(play);
    pauseButton_->setEnabled(pause);
    resetButton_->setEnabled(reset);
}

void LessonToolBars::enableBack(bool enabled) {
    backButton_->setEnabled(enabled);
}

void LessonToolBars::showSkipToEnd(bool shown, bool enabled) {
    skipButton_->setEnabled(enabled);
    if (skipAction_->isVisible() == shown) return;
    skipAction_->setVisible(shown);
    QTimer::singleShot(0, this, &LessonToolBars::place); // the player bar's width changed
}

void LessonToolBars::place() {
    const bool twoRows = lessonBar_->sizeHint().width() + playerBar_->sizeHint().width() > window_->width();
    if (twoRows == window_->toolBarBreak(playerBar_)) return;
    if (twoRows)
        window_->insertToolBarBreak(playerBar_);
    else
        window_->removeToolBarBreak(playerBar_);
}

void LessonToolBars::retranslateUi() {
    lessonBar_->setWindowTitle(tr("Lesson"));
    playerBar_->setWindowTitle(tr("Player"));
    lessonLabel_->setText(tr(" Lesson "));
    sizeLabel_->setText(tr("  Size "));
    sizeSpin_->setSuffix(tr(" B"));
    messageLabel_->setText(tr("  Message "));
    playButton_->setText(tr("▶ Play"));
    playButton_->setToolTip(tr("Perform the steps one after another"));
    pauseButton_->setText(tr("❚❚ Pause"));
    pauseButton_->setToolTip(tr("Stop after the current step"));
    stepButton_->setText(tr("Step ▷"));
    stepButton_->setToolTip(tr("Perform exactly the next real verbs step"));
    backButton_->setText(tr("◁ Back"));
    backButton_->setToolTip(tr("Show the picture as the step before the one shown left it (Step and Play go "
                               "on from where the lesson is)"));
    skipButton_->setText(tr("To the end ▶▶"));
    skipButton_->setToolTip(tr("Replay the rest of the recording as fast as the window can show it: the "
                               "picture jumps to where the replay is instead of animating every step"));
    resetButton_->setText(tr("⟲ Reset"));
    resetButton_->setToolTip(tr("Release everything and start the lesson again"));
    speedLabel_->setText(tr("  Speed "));
    speedSlider_->setToolTip(tr("Animation speed"));
    languageCombo_->setToolTip(tr("The language of the interface and of the lesson texts"));
    measureButton_->setText(tr("Measure TCP vs RDMA…"));
    measureButton_->setToolTip(
        tr("Open the measurement window: latency and bandwidth of TCP and RDMA, live charts"));
}

} // namespace rdmalab::app
