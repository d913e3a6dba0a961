// Pieces both windows are built from: the banner across the top (the engine banner of both windows, the
// lesson window's recovery offer), the fixed toolbar, the window's first size, fitted to the screen, and a
// combo box that elides a long choice instead of cutting it.
#pragma once

#include <QComboBox>
#include <QFrame>

class QLabel;
class QMainWindow;
class QPushButton;
class QScreen;
class QToolBar;

namespace rdmalab::app {

class EngineClient;

/// A message (plain text, selectable: it may quote the engine's stderr or a file) with buttons beside it,
/// hidden until there is something to say.
class Banner : public QFrame {
    Q_OBJECT
  public:
    enum class Tone { Error, Info };

    /// Hidden until showMessage(); `name` and `messageName` are the object names of the banner and its
    /// message label (tests find them).
    Banner(const QString& name, const QString& messageName, Tone tone, QWidget* parent = nullptr);

    /// Adds a button at the right, in the order added.
    QPushButton* addButton(const QString& name, const QString& text, const QString& toolTip = {});
    QLabel* message() const { return message_; }
    /// Sets the message and shows the banner.
    void showMessage(const QString& text);

  private:
    QLabel* message_;
};

/// The lesson window's and the measurement window's engine banner: red, with a "Restart engine" button
/// (restartEngineButton).
Banner* makeEngineBanner(QPushButton** restartButton, QWidget* parent = nullptr);

/// The engine banner follows the engine: it hides when the engine (re)starts; the engine's protocol
/// errors show in the window's status bar for 8 s.
void connectEngineBanner(QMainWindow* window, EngineClient* engine, Banner* banner);

/// The yellow warning shown when a session or measurement could not be autosaved (autosaveWarning);
/// hidden until there is one.
QLabel* makeAutosaveWarning();

/// A push button with this text and object name.
QPushButton* makeButton(const QString& text, const QString& name);

/// Sets the label of `field`'s row in the form layout it sits in (nothing when it is in none).
void setRowLabel(QWidget* field, const QString& text);

/// Presentation mode's look, for the whole app: a font 1.6 times as large (15 pt at least), white and yellow
/// on black; off: the font and the style's palette as they were.
void applyPresentationLook(bool on);

/// The window's toolbar: not movable, named for tests and saved state.
QToolBar* addFixedToolBar(QMainWindow* window, const QString& title, const QString& name);

/// The size a window opens with: `preferred`, shrunk to 90 % of the available screen area (a 1280x720
/// projector, a small laptop), never below `minimum`.
QSize fittedWindowSize(QSize preferred, QSize available, QSize minimum = QSize(800, 560));

/// "1280x720" (or "1280X720", "1280×720") as a size; an invalid QSize for anything else, or a side below 200
/// or above 16384 px (--window-size).
QSize parseWindowSize(const QString& text);

/// The window's screen, unless it is the offscreen platform's default one (800x800, 800x600 in newer Qt):
/// headless runs without a configured screen (offscreen:configfile=screens.json) have none to fit or fill.
const QScreen* realScreen(const QWidget* window);

/// Resizes the window to fittedWindowSize() of its screen's available geometry and centres it there (on the
/// offscreen platform's default screen, only resizes it to `preferred`). The windows' minimum sizes fit a
/// 1024x768 screen (tst_appwidgets, tst_benchwindow), so the fitted size is the size they get.
void fitToScreen(QMainWindow* window, QSize preferred);

/// Opens another window of the app, in `language`, driving `engineProgram`; it is deleted when closed.
template <class Window, class Options>
void openWindow(const QString& language, const QString& engineProgram) {
    Options o;
    o.language = language;
    o.engineProgram = engineProgram;
    auto* window = new Window(o);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
}

/// A combo box kept narrow (a toolbar's) whose current choice, when longer than its room, is drawn cut
/// short with "…" and shown whole in its tooltip, rather than clipped mid-word.
class ElidingComboBox : public QComboBox {
    Q_OBJECT
  public:
    explicit ElidingComboBox(QWidget* parent = nullptr);

  protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace rdmalab::app
