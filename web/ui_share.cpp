// ui_share.cpp — share link (visible text field + Copy), open a link or paste JSON, import and export files.
#include <imgui.h>

#include <cstring>

#include "app.h"
#include "json_io.h"
#include "platform.h"
#include "result_json.h"

namespace gpucost::app {
namespace {

void ShareLink(AppState& app) {
  ImGui::TextUnformatted("Share link");
  ImGui::TextDisabled("The scenario (only what differs from the defaults) and the pinned comparison, in the URL.");
  const std::string& link = AppLink(app);
  if (ImGui::Button("Copy link")) {
    platform::CopyToClipboard(link);
    app.notice.clear();
  }
  RecordRect(app, "copy_link");
  ImGui::SameLine();
  switch (platform::LastCopyState()) {
    case platform::CopyState::kPending: ImGui::TextDisabled("copying..."); break;
    case platform::CopyState::kCopied: ImGui::TextDisabled("copied to the clipboard"); break;
    case platform::CopyState::kRefused:
      ImGui::TextDisabled("the browser refused the clipboard: select the field below and copy by hand");
      break;
    case platform::CopyState::kNone: ImGui::TextDisabled("%zu characters", link.size()); break;
  }
  ImGui::SetNextItemWidth(-1);
  // Read-only: ImGui does not write into the buffer, the const_cast only satisfies the signature.
  ImGui::InputText("##link", const_cast<char*>(link.c_str()), link.size() + 1,
                   ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AutoSelectAll);
  RecordRect(app, "link_field");
}

void PasteBox(AppState& app) {
  ImGui::TextUnformatted("Open a link, a scenario or a probe report");
  ImGui::TextDisabled("Paste a share link, a scenario JSON document or a gpucost probe report, then Load.");
  ImGui::InputTextMultiline("##paste", app.paste.data(), app.paste.size(),
                            ImVec2(-1, ImGui::GetTextLineHeight() * 6));
  RecordRect(app, "paste");
  if (ImGui::Button("Load pasted text")) {
    const std::string text(app.paste.data());
    if (AppImportText(app, "pasted text", text).empty()) app.paste[0] = '\0';
  }
  RecordRect(app, "load_paste");
}

void Files(AppState& app) {
  ImGui::TextUnformatted("Files");
  if (ImGui::Button("Download scenario JSON")) {
    platform::DownloadFile("scenario.json", ScenarioToJson(app.scenario, false) + "\n", "application/json");
    app.notice = "Scenario downloaded as scenario.json";
  }
  RecordRect(app, "download_scenario");
  ImGui::SameLine();
  ImGui::BeginDisabled(!app.result.ok);
  if (ImGui::Button("Download result JSON")) {
    platform::DownloadFile("result.json", ResultToJson(app.scenario, app.result) + "\n", "application/json");
    app.notice = "Result downloaded as result.json";
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Upload scenario, link or probe report...")) platform::PickFile(".json,.txt,application/json,text/plain");
  RecordRect(app, "upload");
  ImGui::TextDisabled("A file that does not load leaves the current scenario as it is and says why.");
}

}  // namespace

void DrawShare(AppState& app) {
  ShareLink(app);
  ImGui::Spacing();
  ImGui::Separator();
  PasteBox(app);
  ImGui::Spacing();
  ImGui::Separator();
  Files(app);
}

}  // namespace gpucost::app
