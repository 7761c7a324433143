// ui_share.cpp — share link (visible text field + Copy), open a link or paste JSON, import and export files.
#include <imgui.h>

#include <cstring>

#include "app.h"
#include "scenario/json_io.h"
#include "platform.h"
#include "documents/result_json.h"

namespace gpucost::app {
namespace {


// SameLine() when a button labelled `label` still fits on this line, else the button starts a new line.
void SameLineIfFits(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float needs = ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  const float right = ImGui::GetItemRectMax().x + needs;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

void ShareLink(AppState& app) {
  ImGui::TextUnformatted(Tr("share.title"));
  Hint(Tr("share.hint"));
  const std::string& link = AppLink(app);
  if (ImGui::Button((std::string(Tr("share.copy")) + "###copy").c_str())) {
    platform::CopyToClipboard(link);
    app.notice.clear();
  }
  RecordRect(app, "copy_link");
  ImGui::SameLine();
  switch (platform::LastCopyState()) {
    case platform::CopyState::kPending: ImGui::TextDisabled("%s", Tr("share.copying")); break;
    case platform::CopyState::kCopied: ImGui::TextDisabled("%s", Tr("share.copied")); break;
    case platform::CopyState::kRefused:
      Hint(Tr("share.refused"));
      break;
    case platform::CopyState::kNone: ImGui::TextDisabled("%s", TrFormat("share.chars", {std::to_string(link.size())}).c_str()); break;
  }
  ImGui::SetNextItemWidth(-1);
  // Read-only: ImGui does not write into the buffer, the const_cast only satisfies the signature.
  ImGui::InputText("##link", const_cast<char*>(link.c_str()), link.size() + 1,
                   ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AutoSelectAll);
  RecordRect(app, "link_field");
}

void PasteBox(AppState& app) {
  ImGui::TextUnformatted(Tr("share.open_title"));
  Hint(Tr("share.open_hint"));
  ImGui::InputTextMultiline("##paste", app.paste.data(), app.paste.size(),
                            ImVec2(-1, ImGui::GetTextLineHeight() * 6));
  RecordRect(app, "paste");
  if (ImGui::Button((std::string(Tr("share.load_pasted")) + "###load_paste").c_str())) {
    const std::string text(app.paste.data());
    if (AppImportText(app, Tr(Lang::kEn, "msg.app.pasted_text"), text).empty()) app.paste[0] = '\0';
  }
  RecordRect(app, "load_paste");
}

void Files(AppState& app) {
  ImGui::TextUnformatted(Tr("share.files"));
  if (ImGui::Button((std::string(Tr("share.download_scenario")) + "###download_scenario").c_str())) {
    platform::DownloadFile("scenario.json", ScenarioToJson(app.scenario, false) + "\n", "application/json");
    app.notice = TrFormat("share.downloaded", {Tr("share.scenario"), "scenario.json"});
  }
  RecordRect(app, "download_scenario");
  const std::string result_label = std::string(Tr("share.download_result")) + "###download_result";
  SameLineIfFits(result_label.c_str());
  ImGui::BeginDisabled(!app.result.ok);
  if (ImGui::Button(result_label.c_str())) {
    platform::DownloadFile("result.json", ResultToJson(app.scenario, app.result) + "\n", "application/json");
    app.notice = TrFormat("share.downloaded", {Tr("share.result"), "result.json"});
  }
  ImGui::EndDisabled();
  const std::string upload_label = std::string(Tr("share.upload")) + "###upload";
  SameLineIfFits(upload_label.c_str());
  if (ImGui::Button(upload_label.c_str())) platform::PickFile(".json,.txt,application/json,text/plain");
  RecordRect(app, "upload");
  Hint(Tr("share.upload_hint"));
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
