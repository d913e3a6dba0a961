#include "lessons.h"

#include <algorithm>

namespace rdmalab::app {

std::vector<Lesson> lessonsAmong(const std::vector<labs::Lab>& labs) {
    std::vector<Lesson> out;
    for (const auto id : kLessonLabs) {
        const auto lab =
            std::find_if(labs.begin(), labs.end(), [&](const labs::Lab& l) { return l.id == id; });
        if (lab == labs.end()) continue;
        Lesson lesson{.lab = *lab, .size = 64, .message = {}};
        if (const auto* size = lab->parameter("size"))
            lesson.size = static_cast<int>(size->default_value.integer);
        if (const auto* message = lab->parameter("message"))
            lesson.message = QString::fromStdString(message->default_value.text);
        out.push_back(std::move(lesson));
    }
    return out;
}

bool recordsLoopbackOperation(const QString& mode) {
    return mode.startsWith(QLatin1String("op ")) || mode.startsWith(QLatin1String("serve op "));
}

QString lessonOfMode(const QString& mode) {
    for (const auto prefix :
         {QLatin1String("serve lab "), QLatin1String("op "), QLatin1String("serve op ")}) {
        if (!mode.startsWith(prefix)) continue;
        const QString id = mode.mid(prefix.size());
        const bool lesson = std::any_of(kLessonLabs.begin(), kLessonLabs.end(), [&](std::string_view l) {
            return id == QLatin1String(l.data(), static_cast<qsizetype>(l.size()));
        });
        return lesson ? id : QString();
    }
    return {};
}

} // namespace rdmalab::app
