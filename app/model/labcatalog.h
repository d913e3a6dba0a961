// Every lab the app can open, by chapter: the curriculum (labs/ of the installation or the source tree)
// and the user's own lab folder. A file that does not parse is listed with its file, line and reason
// instead of being dropped, so a teacher sees why a lab is missing.
#pragma once

#include "rdmalab/labs/lab.hpp"

#include <QAbstractItemModel>
#include <QStringList>

#include <vector>

namespace rdmalab::app {

class LabCatalog : public QAbstractItemModel {
    Q_OBJECT
  public:
    /// A lab's level as the interface names it (the file's word when it is not one of the four).
    static QString levelName(const QString& level);
    enum Column { TitleColumn, LevelColumn, MinutesColumn, ProgressColumn, ColumnCount };
    enum Role {
        LabIdRole = Qt::UserRole + 1, ///< the lab's id (empty for a chapter row)
        FileRole,                     ///< the lab's file
        ObjectivesRole,               ///< its objectives, one per line, in the catalog's language
        ChapterRole,                  ///< the chapter number
        ProgressRole,                 ///< "held" (finished, every expectation held), "broken" or empty
    };

    /// How far a student got with one lab, kept between runs.
    struct Progress {
        /// "held": finished with every expectation held and every question answered (done); "unanswered":
        /// every expectation held, some questions not answered yet; "broken": finished otherwise
        QString state;
        int held = 0;
        int broken = 0;
        QString date;                                  ///< when it last finished (ISO 8601, UTC)
        int predictionsRight = 0, predictionsMade = 0; ///< predict-first questions of the last run
        int questionsRight = 0, questions = 0;         ///< end-of-lab questions of the last run
    };

    explicit LabCatalog(QObject* parent = nullptr);

    /// The user's lab folder: $XDG_DATA_HOME/rdmalab/labs (~/.local/share/rdmalab/labs).
    static QString userLabDirectory();

    /// Loads the labs under `curriculum` (with its chapters.yaml) and then under `user` (may not exist);
    /// texts in `language` ("en" or "zh"). A user lab whose id the curriculum has already is an error.
    void load(const QString& curriculum, const QString& user, const QString& language);
    /// Texts in another language, without reading the files again.
    void setLanguage(const QString& language);
    QString language() const { return language_; }

    /// The files that did not load: "FILE:LINE:COLUMN: field 'F': message (expected E, found X)".
    QStringList errors() const { return errors_; }
    int labCount() const { return static_cast<int>(labs_.size()); }
    /// The lab a lab row shows, or nullptr (a chapter row, an invalid index).
    const labs::Lab* lab(const QModelIndex& index) const;
    /// The row of lab `id`, or an invalid index.
    QModelIndex indexOf(const QString& id) const;

    /// Where progress is kept: an INI file (tests), or empty for the app's settings (QSettings).
    void setProgressFile(const QString& path) { progressFile_ = path; }
    /// Records that lab `id` finished (kept between runs) and updates its row's mark: done (✓) only once
    /// every expectation held and no question is left unanswered (`unanswered`).
    void setProgress(const QString& id, bool allHeld, int held, int broken, int unanswered = 0);
    /// Adds the last run's predictions and answers to lab `id`'s progress (after setProgress).
    void setAnswers(const QString& id, int predictionsRight, int predictionsMade, int questionsRight,
                    int questions);
    /// The last recorded finish of lab `id` (state empty when it never finished).
    Progress progress(const QString& id) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct ChapterRow {
        int number = 0;
        labs::LocalizedText title;
        std::vector<std::size_t> labs; ///< indexes into labs_, in (order, id) order
    };
    QString text(const labs::LocalizedText& t) const;

    std::vector<labs::Lab> labs_;
    std::vector<ChapterRow> chapters_;
    QStringList errors_;
    QString language_ = QStringLiteral("en");
    QString progressFile_;
};

} // namespace rdmalab::app
