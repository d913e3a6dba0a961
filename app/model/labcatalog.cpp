#include "labcatalog.h"

#include "qtstrings.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
#include <memory>
#include <set>

namespace rdmalab::app {

namespace {

// The internal id of a row: 0 for a chapter row, chapter row + 1 for a lab row (its parent's row).
constexpr quintptr kChapterRow = 0;

/// The line of a lab file's top-level `id:` (1 when it cannot be found).
int idLine(const QString& file) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly | QIODevice::Text)) return 1;
    for (int line = 1; !in.atEnd(); ++line)
        if (in.readLine().startsWith("id:")) return line;
    return 1;
}

} // namespace

LabCatalog::LabCatalog(QObject* parent) : QAbstractItemModel(parent) {}

QString LabCatalog::userLabDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/rdmalab/labs");
}

void LabCatalog::load(const QString& curriculum, const QString& user, const QString& language) {
    beginResetModel();
    labs_.clear();
    chapters_.clear();
    errors_.clear();
    language_ = language;
    std::vector<labs::LabError> errors;
    std::vector<labs::Chapter> chapters;
    const QString chapterFile = curriculum + QStringLiteral("/chapters.yaml");
    if (QFileInfo::exists(chapterFile)) chapters = labs::load_chapters(chapterFile.toStdString(), errors);
    labs_ = labs::load_labs(curriculum.toStdString(), errors);
    std::set<std::string> ids;
    for (const auto& l : labs_)
        ids.insert(l.id);
    if (!user.isEmpty() && QDir(user).exists()) {
        std::vector<labs::LabError> userErrors;
        for (auto& l : labs::load_labs(user.toStdString(), userErrors)) {
            if (!ids.insert(l.id).second) {
                labs::LabError e;
                e.file = l.file;
                e.line = idLine(QString::fromStdString(l.file));
                e.column = 1;
                e.field = "id";
                e.message = "the curriculum already has a lab '" + l.id + "': give this one another id";
                userErrors.push_back(e);
                continue;
            }
            labs_.push_back(std::move(l));
        }
        errors.insert(errors.end(), userErrors.begin(), userErrors.end());
    }
    for (const auto& e : errors)
        errors_ << qs(e.to_string());
    // Chapters: those of chapters.yaml, then any other number a lab names (a user's chapter 30).
    for (const auto& c : chapters)
        chapters_.push_back(ChapterRow{c.number, c.title, {}});
    for (std::size_t i = 0; i < labs_.size(); ++i) {
        auto it = std::find_if(chapters_.begin(), chapters_.end(),
                               [&](const ChapterRow& c) { return c.number == labs_[i].chapter; });
        if (it == chapters_.end()) {
            ChapterRow row;
            row.number = labs_[i].chapter;
            row.title.en = "Chapter " + std::to_string(row.number);
            row.title.zh = "第 " + std::to_string(row.number) + " 章";
            chapters_.push_back(row);
            it = chapters_.end() - 1;
        }
        it->labs.push_back(i);
    }
    std::erase_if(chapters_, [](const ChapterRow& c) { return c.labs.empty(); });
    std::sort(chapters_.begin(), chapters_.end(),
              [](const ChapterRow& a, const ChapterRow& b) { return a.number < b.number; });
    for (auto& c : chapters_)
        std::sort(c.labs.begin(), c.labs.end(), [&](std::size_t a, std::size_t b) {
            return std::tie(labs_[a].order, labs_[a].id) < std::tie(labs_[b].order, labs_[b].id);
        });
    endResetModel();
}

void LabCatalog::setLanguage(const QString& language) {
    if (language == language_) return;
    language_ = language;
    if (!chapters_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1)); // chapter rows
    for (int c = 0; c < rowCount(); ++c) {
        const QModelIndex chapter = index(c, 0);
        if (rowCount(chapter) > 0)
            emit dataChanged(index(0, 0, chapter), index(rowCount(chapter) - 1, ColumnCount - 1, chapter));
    }
}

QString LabCatalog::text(const labs::LocalizedText& t) const {
    return qs(t.get(language_.toStdString()));
}

const labs::Lab* LabCatalog::lab(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == kChapterRow) return nullptr;
    const auto& chapter = chapters_.at(index.internalId() - 1);
    return &labs_.at(chapter.labs.at(static_cast<std::size_t>(index.row())));
}

QModelIndex LabCatalog::indexOf(const QString& id) const {
    for (std::size_t c = 0; c < chapters_.size(); ++c)
        for (std::size_t r = 0; r < chapters_[c].labs.size(); ++r)
            if (qs(labs_[chapters_[c].labs[r]].id) == id)
                return createIndex(static_cast<int>(r), 0, static_cast<quintptr>(c) + 1);
    return {};
}

QModelIndex LabCatalog::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) {
        if (row >= static_cast<int>(chapters_.size())) return {};
        return createIndex(row, column, kChapterRow);
    }
    if (parent.internalId() != kChapterRow || parent.column() != 0) return {};
    const auto& chapter = chapters_.at(static_cast<std::size_t>(parent.row()));
    if (row >= static_cast<int>(chapter.labs.size())) return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex LabCatalog::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kChapterRow) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kChapterRow);
}

int LabCatalog::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(chapters_.size());
    if (parent.internalId() != kChapterRow || parent.column() != 0) return 0;
    return static_cast<int>(chapters_.at(static_cast<std::size_t>(parent.row())).labs.size());
}

int LabCatalog::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant LabCatalog::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    if (index.internalId() == kChapterRow) {
        const auto& chapter = chapters_.at(static_cast<std::size_t>(index.row()));
        if (role == ChapterRole) return chapter.number;
        if (role != Qt::DisplayRole || index.column() != TitleColumn) return {};
        return QStringLiteral("%1 · %2").arg(chapter.number).arg(text(chapter.title));
    }
    const labs::Lab* l = lab(index);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == TitleColumn) return text(l->title);
        if (index.column() == LevelColumn) return LabCatalog::levelName(qs(l->level));
        if (index.column() == MinutesColumn) return l->minutes;
        if (index.column() == ProgressColumn) {
            const auto p = progress(qs(l->id));
            return p.state == QLatin1String("held")         ? QStringLiteral("✓")
                   : p.state == QLatin1String("broken")     ? QStringLiteral("✗")
                   : p.state == QLatin1String("unanswered") ? QStringLiteral("…")
                                                            : QString();
        }
        return {};
    case Qt::ToolTipRole: {
        const auto p = progress(qs(l->id));
        if (index.column() != ProgressColumn || p.state.isEmpty()) return qs(l->file);
        QString tip = p.state == QLatin1String("held")
                          ? tr("Finished %1: every expectation held (%2)").arg(p.date).arg(p.held)
                      : p.state == QLatin1String("unanswered")
                          ? tr("Ran %1: every expectation held (%2); answer the questions to finish it")
                                .arg(p.date)
                                .arg(p.held)
                          : tr("Finished %1: %2 held, %3 broken").arg(p.date).arg(p.held).arg(p.broken);
        if (p.predictionsMade > 0)
            tip += QLatin1Char('\n') +
                   tr("Predictions: %1 of %2 right").arg(p.predictionsRight).arg(p.predictionsMade);
        if (p.questions > 0)
            tip += QLatin1Char('\n') + tr("Questions: %1 of %2 right").arg(p.questionsRight).arg(p.questions);
        return tip;
    }
    case ProgressRole:
        return progress(qs(l->id)).state;
    case LabIdRole:
        return qs(l->id);
    case FileRole:
        return qs(l->file);
    case ChapterRole:
        return l->chapter;
    case ObjectivesRole: {
        QStringList lines;
        for (const auto& o : l->objectives)
            lines << text(o);
        return lines.join(QLatin1Char('\n'));
    }
    default:
        return {};
    }
}

QVariant LabCatalog::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case TitleColumn:
        return tr("Lab");
    case LevelColumn:
        return tr("Level");
    case MinutesColumn:
        return tr("Minutes");
    case ProgressColumn:
        return tr("Done");
    default:
        return {};
    }
}

namespace {

/// The store of progress marks: the given INI file, else the app's settings.
std::unique_ptr<QSettings> progressStore(const QString& file) {
    return file.isEmpty() ? std::make_unique<QSettings>()
                          : std::make_unique<QSettings>(file, QSettings::IniFormat);
}

} // namespace

void LabCatalog::setProgress(const QString& id, bool allHeld, int held, int broken, int unanswered) {
    auto store = progressStore(progressFile_);
    store->beginGroup(QStringLiteral("labProgress"));
    store->setValue(id + QStringLiteral("/state"), !allHeld         ? QStringLiteral("broken")
                                                   : unanswered > 0 ? QStringLiteral("unanswered")
                                                                    : QStringLiteral("held"));
    store->setValue(id + QStringLiteral("/held"), held);
    store->setValue(id + QStringLiteral("/broken"), broken);
    store->setValue(id + QStringLiteral("/date"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    store->endGroup();
    store->sync();
    if (const QModelIndex row = indexOf(id); row.isValid()) {
        const QModelIndex mark = index(row.row(), ProgressColumn, row.parent());
        emit dataChanged(mark, mark);
    }
}

void LabCatalog::setAnswers(const QString& id, int predictionsRight, int predictionsMade, int questionsRight,
                            int questions) {
    auto store = progressStore(progressFile_);
    store->beginGroup(QStringLiteral("labProgress"));
    store->setValue(id + QStringLiteral("/predictionsRight"), predictionsRight);
    store->setValue(id + QStringLiteral("/predictionsMade"), predictionsMade);
    store->setValue(id + QStringLiteral("/questionsRight"), questionsRight);
    store->setValue(id + QStringLiteral("/questions"), questions);
    store->endGroup();
    store->sync();
    if (const QModelIndex row = indexOf(id); row.isValid()) {
        const QModelIndex mark = index(row.row(), ProgressColumn, row.parent());
        emit dataChanged(mark, mark);
    }
}

LabCatalog::Progress LabCatalog::progress(const QString& id) const {
    auto store = progressStore(progressFile_);
    store->beginGroup(QStringLiteral("labProgress"));
    Progress p;
    p.state = store->value(id + QStringLiteral("/state")).toString();
    p.held = store->value(id + QStringLiteral("/held")).toInt();
    p.broken = store->value(id + QStringLiteral("/broken")).toInt();
    p.date = store->value(id + QStringLiteral("/date")).toString();
    p.predictionsRight = store->value(id + QStringLiteral("/predictionsRight")).toInt();
    p.predictionsMade = store->value(id + QStringLiteral("/predictionsMade")).toInt();
    p.questionsRight = store->value(id + QStringLiteral("/questionsRight")).toInt();
    p.questions = store->value(id + QStringLiteral("/questions")).toInt();
    return p;
}

QString LabCatalog::levelName(const QString& level) {
    if (level == QLatin1String("intro")) return tr("intro");
    if (level == QLatin1String("basic")) return tr("basic");
    if (level == QLatin1String("intermediate")) return tr("intermediate");
    if (level == QLatin1String("advanced")) return tr("advanced");
    return level;
}

} // namespace rdmalab::app
