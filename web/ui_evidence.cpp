// ui_evidence.cpp — Evidence: how far the model holds on published runs it was not fitted to (issue 26), and where
// the edited scenario stands among them: the document of `gpucost catalog evidence SCENARIO` (core/evidence/evidence.h),
// drawn from the same structures. The runs (assets/validation, ~29 KB) are not in the page's first load: the view
// fetches them the first time it opens and installs them (core/base/assets.h InstallAsset).
#include <imgui.h>

#include <initializer_list>
#include <string>

#include "app.h"
#include "base/assets.h"
#include "documents/evidence_json.h"
#include "base/format.h"
#include "base/i18n.h"
#include "platform.h"

namespace gpucost::app {
namespace {

const char* const kValidationFiles[] = {"validation/measured_runs.json", "validation/serving_runs.json"};

// Installs the files that have arrived; asks for the others once. True when both are here.
bool RunsHere(AppState& app) {
  if (ValidationRunsPresent()) return true;
  for (const char* path : kValidationFiles) {
    if (FindAsset(path) != nullptr) continue;
    const std::string text = platform::DataFileText(path);
    if (!text.empty()) InstallAsset(path, text);
    else if (!app.evidence.requested) platform::RequestDataFile(path);
  }
  app.evidence.requested = true;
  return ValidationRunsPresent();
}

void Heading(const char* text) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::PushTextWrapPos(0);  // "By source (held out: ...)" ran off a phone's screen
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
}

void Cell(const std::string& text) {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(text.c_str());
}

void Headers(std::initializer_list<const char*> keys) {
  for (const char* k : keys) ImGui::TableSetupColumn(Tr(k), ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
}

constexpr int kTableFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;

void TrainingRow(const EvidenceRun& r) {
  ImGui::TableNextRow();
  Cell(r.id);
  if (ImGui::IsItemHovered() && (!r.cause.empty() || !r.assumed.empty()))
    ImGui::SetTooltip("%s%s%s", r.cause.c_str(), !r.cause.empty() && !r.assumed.empty() ? "\n" : "", r.assumed.c_str());
  Cell(r.source);
  Cell(r.framework);
  Cell(r.gpu);
  Cell(std::to_string(r.gpus));
  Cell(FormatNumber(r.measured_seconds, 4));
  Cell(FormatNumber(r.held_out_seconds, 4));
  Cell(FormatSignedPercent(r.error));
  Cell(FormatSignedPercent(r.held_out_error));
}

void ServingRow(const ServingEvidenceRun& r) {
  ImGui::TableNextRow();
  Cell(r.id);
  Cell(r.source);
  Cell(r.gpu);
  Cell(std::to_string(r.tensor_parallel));
  Cell(std::to_string(r.concurrency));
  Cell(r.metric);
  Cell(FormatNumber(r.measured, 4));
  Cell(FormatNumber(r.predicted, 4));
  Cell(FormatSignedPercent(r.error));
}

constexpr auto kTrainingColumns = {"evidence.col_run", "evidence.col_source", "evidence.col_framework", "evidence.col_gpu",
                                   "evidence.col_gpus", "evidence.col_measured_s", "evidence.col_predicted_s",
                                   "evidence.col_in_sample", "evidence.col_held_out"};
constexpr auto kServingColumns = {"evidence.col_run", "evidence.col_source", "evidence.col_gpu", "evidence.col_tp",
                                  "evidence.col_concurrency", "evidence.col_metric", "evidence.col_measured",
                                  "evidence.col_predicted", "evidence.col_error"};

// Where the edited scenario stands: its nearest runs and their errors' range (core's EvidenceAt).
void DrawHere(AppState& app, const StepEvidence& e, const ServingEvidence& serving) {
  Heading(Tr("evidence.here"));
  if (!app.problems.empty()) {
    Hint(Tr("evidence.invalid"));
    return;
  }
  const ScenarioEvidence at = EvidenceAt(e, &serving, app.scenario);
  if (!at.similar) Hint(Tr("evidence.none_similar"));
  const int n = static_cast<int>(at.runs.size());
  if (BeginFigureTable(app, "evidence_near", 9, n, kTableFlags)) {
    Headers(at.serving ? kServingColumns : kTrainingColumns);
    for (int i : at.runs) {
      if (at.serving) ServingRow(serving.runs[static_cast<std::size_t>(i)]);
      else TrainingRow(e.runs[static_cast<std::size_t>(i)]);
    }
    ImGui::EndTable();
    RecordRect(app, "evidence_near");
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(TrFormat(at.serving ? "evidence.band_serving" : "evidence.band",
                                  {FormatSignedPercent(at.low), FormatSignedPercent(at.high), FormatSignedPercent(at.mean)})
                             .c_str());
  RecordText(app, "evidence_band", FormatSignedPercent(at.low) + " " + FormatSignedPercent(at.high));
  ImGui::PopTextWrapPos();
}

}  // namespace

bool AppUpdateEvidence(AppState& app) {
  if (!RunsHere(app) || !app.problems.empty()) return false;
  if (app.evidence.for_evaluation != app.evaluations) {
    app.evidence.for_evaluation = app.evaluations;
    app.evidence.document = EvidenceToJson(TrainingEvidence(), &ServingValidation(), &app.scenario);
  }
  return true;
}

void DrawEvidence(AppState& app) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(Tr("evidence.intro"));
  ImGui::PopTextWrapPos();
  if (!RunsHere(app)) {
    Hint(Tr("evidence.loading"));
    app.busy = true;  // draw again when the files arrive
    return;
  }
  const StepEvidence& e = TrainingEvidence();
  const ServingEvidence& serving = ServingValidation();
  if (!e.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.35f, 1), "%s", e.error.c_str());
    return;
  }
  ImGui::PushTextWrapPos(0);
  const std::string summary = TrainingSummaryText(e);
  ImGui::TextUnformatted(summary.c_str());
  RecordText(app, "evidence_summary", summary);
  for (const EvidenceCategory& c : e.categories)  // issue 46: pre-training and fine-tuning, each held out
    ImGui::TextUnformatted(EvidenceCategoryText(c).c_str());
  if (serving.error.empty()) ImGui::TextUnformatted(ServingSummaryText(serving).c_str());
  if (serving.error.empty()) ImGui::TextUnformatted(ServingByMetricText(serving).c_str());
  if (serving.error.empty()) ImGui::TextUnformatted(ServingBySourceText(serving).c_str());
  ImGui::PopTextWrapPos();
  DrawHere(app, e, serving);

  Heading(Tr("evidence.by_source"));
  if (BeginFigureTable(app, "evidence_sources", 5, static_cast<int>(e.sources.size()), kTableFlags)) {
    Headers({"evidence.col_source", "evidence.col_runs", "evidence.col_in_sample", "evidence.col_held_out",
             "evidence.col_held_out_mean"});
    for (const EvidenceSource& s : e.sources) {
      ImGui::TableNextRow();
      Cell(s.id);
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextUnformatted(s.citation.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
      Cell(std::to_string(s.runs));
      Cell(FormatPercent(s.in_sample_mae));
      Cell(FormatPercent(s.held_out_mae));
      Cell(FormatSignedPercent(s.held_out_mean));
    }
    ImGui::EndTable();
  }
  const bool all_runs = ImGui::CollapsingHeader(Tr("evidence.training_runs"));
  RecordRect(app, "evidence_all_runs");
  if (all_runs) {
    if (BeginFigureTable(app, "evidence_runs", 9, static_cast<int>(e.runs.size()), kTableFlags)) {
      Headers(kTrainingColumns);
      for (const EvidenceRun& r : e.runs) TrainingRow(r);
      ImGui::EndTable();
    }
  }
  const bool all_serving = serving.error.empty() && ImGui::CollapsingHeader(Tr("evidence.serving_runs"));
  if (serving.error.empty()) RecordRect(app, "evidence_all_serving");
  if (all_serving) {
    if (BeginFigureTable(app, "evidence_serving", 9, static_cast<int>(serving.runs.size()), kTableFlags)) {
      Headers(kServingColumns);
      for (const ServingEvidenceRun& r : serving.runs) ServingRow(r);
      ImGui::EndTable();
    }
  }
  Hint(Tr("evidence.note"));
}

}  // namespace gpucost::app
