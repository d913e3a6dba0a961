// Two panels of the lab window: the browser of every lab by chapter, with the files that did not load
// (LabBrowser), and the selected lab's description with its parameters and the student's seed (LabForm).
#pragma once

#include "rdmalab/labs/lab.hpp"

#include <QMap>
#include <QWidget>

#include <string>

class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QTreeView;

namespace rdmalab::app {

class LabCatalog;

/// A parameter's default as the lab file gives it.
QString parameterDefaultText(const labs::Value& value);

/// Chapters and labs ("labTree"), and below them each lab file that did not load with its reason
/// ("labErrors", "labErrorList"; hidden when every file loaded).
class LabBrowser : public QWidget {
    Q_OBJECT
  public:
    explicit LabBrowser(LabCatalog* catalog, QWidget* parent = nullptr);
    QTreeView* tree() const { return tree_; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    /// The catalog's load errors in the error list (hidden when there are none).
    void showLoadErrors();

    LabCatalog* catalog_;
    QTreeView* tree_;
    QLabel* errors_;         ///< "These lab files did not load (N):"
    QListWidget* errorList_; ///< each file that did not load, with its reason
};

/// The selected lab ("labHeader": title, chapter, level, time and objectives), a field per parameter
/// ("labParameter_NAME", its default as placeholder) and the student's seed ("labSeed").
class LabForm : public QWidget {
    Q_OBJECT
  public:
    explicit LabForm(const QString& seed, QWidget* parent = nullptr);

    /// Shows `lab` in `language`; null (a chapter is selected) removes the fields and keeps the header.
    void showLab(const labs::Lab* lab, const std::string& language);
    /// The parameter values typed in (the others take their defaults).
    QMap<QString, QString> values() const;
    QString seed() const;

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();

    QLabel* header_;
    QFormLayout* parameterForm_;
    QList<QLineEdit*> parameterEdits_;
    QLineEdit* seed_;
    QLabel* studentLabel_;
    bool labShown_ = false; ///< a lab was shown (until then the header asks to choose one)
};

} // namespace rdmalab::app
