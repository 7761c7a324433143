// ui_offers.cpp — the offer picker in the editor's pricing section: a dated public offer from the catalog
// (assets/offers.json: provider, region, GPU, price, date, source) fills the GPU, the node size, the price, the
// pricing model and the billing rules (increment, minimum, whole instances, where a source confirms them; the
// notice names those left unconfirmed) and is recorded in pricing.offer (core ApplyOffer, as `gpucost pricing --offer`). A GPU
// changed away from the offer's clears it: the price is then unconfirmed, and the status line says so.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "app.h"
#include "documents/catalog.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "base/i18n.h"

namespace gpucost::app {
namespace {

void OfferTooltip(const Offer& o) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 32, ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 2));
  ImGui::Text("%s: %s (%s)", o.provider.c_str(), o.product.c_str(), o.region.c_str());
  if (o.price_by_quote)
    ImGui::TextUnformatted(Tr("quote.tooltip_price"));
  else
    ImGui::TextUnformatted(TrFormat("offer.tip_price", {FormatUsd(o.usd_per_gpu_hour), FormatUsd(o.usd_per_instance_hour),
                                                        std::to_string(o.gpus_per_instance), o.date}).c_str());
  ImGui::TextWrapped("%s", OfferBillingText(o).c_str());
  if (!o.billing.note.empty()) ImGui::TextDisabled("%s", o.billing.note.c_str());
  ImGui::TextDisabled("%s", TrFormat("ui.source", {o.source}).c_str());
  if (!o.via.empty()) ImGui::TextDisabled("%s", TrFormat("offer.via", {o.via}).c_str());
  if (const std::string& note = OfferNoteText(o, CurrentLanguage()); !note.empty()) ImGui::TextDisabled("%s", note.c_str());
  if (!o.facts.empty()) ImGui::TextUnformatted(Tr("quote.facts"));
  for (const OfferFact& f : o.facts)
    ImGui::BulletText("%s: %s [%s, %s]", f.item.c_str(), FactText(f, CurrentLanguage()).c_str(), f.source.c_str(), f.date.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

void AppApplyOffer(AppState& app, const Offer& offer) {
  const ProviderSheet before = app.scenario.provider;
  ApplyOffer(offer, &app.scenario);
  AppScenarioEdited(app);
  app.quote = {};
  // The billing figures it filled, and those no public source confirmed (kept as they were), as the CLI says.
  // In the page's language now (its parts are joined, which the English-to-shown lookup cannot take apart).
  // Named as the list and the headline name it (2026-12-07: "samsung-sds-scp-gpu-server-h100 상품: ..."); the id is
  // the CLI's, typed there.
  const std::string name = offer.provider + " " + offer.product;
  if (offer.price_by_quote) app.notice = TrFormat("quote.picked", {name});
  else app.notice = TrFormat("msg.offer.applied", {name, FormatUsd(offer.usd_per_gpu_hour), offer.date}) +
                    "; " + OfferBillingText(offer, &app.scenario, false) + ".";
  // The provider sheet is the offer's now: say so when answers typed before were replaced (never silently).
  int replaced = 0;
  Scenario old = app.scenario;
  old.provider = before;
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (std::strncmp(f.path, "provider.", 9) != 0 || std::strcmp(f.path, "provider.provider") == 0) continue;
    replaced += GetText(old, f)[0] != '\0' && std::strcmp(GetText(old, f), GetText(app.scenario, f)) != 0;
  }
  if (replaced > 0) app.notice += " " + TrFormat("offer.sheet_replaced", {std::to_string(replaced)});
}

namespace {

// A price-by-quote offer: the quoted price per GPU-hour, typed as a price list reads ("₩9,500", "$6.5"), applied
// on Enter (core SetQuotedPrice, as `gpucost pricing --quote`); until then the scenario is not priced.
void DrawQuoteInput(AppState& app) {
  ImGui::TextUnformatted(Tr("quote.label"));
  ImGui::SetNextItemWidth(-1);
  const bool entered = ImGui::InputTextWithHint("##quote", Tr("quote.hint"), app.quote.text, sizeof app.quote.text,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  RecordRect(app, "quote");
  if (entered || (ImGui::IsItemDeactivatedAfterEdit() && app.quote.text[0])) {
    std::string label;
    app.quote.error = QuotedPriceProblem(&app.scenario, app.quote.text, &label);
    if (app.quote.error.empty()) {
      AppScenarioEdited(app);
      if (label.empty()) AppSetNotice(app, {"quote.applied", {app.quote.text}});
      else app.notice = label;  // the conversion, in the page's language
      app.quote = {};
    }
  }
  if (!app.quote.error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", app.quote.error.Text(CurrentLanguage()).c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

void AppGpuChanged(AppState& app) {
  const Offer* offer = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;
  const FieldSpec& price = *FindField("pricing.usd_per_gpu_hour");
  if (!offer && app.scenario.pricing.krw_per_gpu_hour <= 0 && IsDefault(app.scenario, price) &&
      !IsDefault(app.scenario, *FindField("cluster.gpu"))) {
    // The example price is the default GPU's (an H100): say so rather than price another GPU with it silently.
    const GpuSpec* gpu = FindGpu(app.scenario.cluster.gpu);
    AppSetNotice(app, {"msg.offer.default_price", {FormatUsd(app.scenario.pricing.usd_per_gpu_hour),
                                                   gpu ? gpu->name : std::string(app.scenario.cluster.gpu)}});
    return;
  }
  if (!offer || offer->gpu == app.scenario.cluster.gpu) return;
  const GpuSpec* gpu = FindGpu(app.scenario.cluster.gpu);
  const Message notice{"msg.offer.unconfirmed", {FormatUsd(app.scenario.pricing.usd_per_gpu_hour), offer->id, offer->gpu,
                                                 gpu ? gpu->name : std::string(app.scenario.cluster.gpu)}};
  app.scenario.pricing.offer[0] = '\0';
  AppScenarioEdited(app);  // (clears the notice)
  AppSetNotice(app, notice);
}

namespace {

// Who, what and where, as a person names it ("AWS p5.48xlarge (8x H100 SXM) (us-east-1)"), not the catalog id.
std::string OfferName(const Offer& o) { return o.provider + " " + o.product + " (" + o.region + ")"; }

// An offer as a row of the list (issue 47: one long line ran off a phone's right edge): who, what and where, then the
// price (in a KRW scenario in won, the core's OfferListPrice) and its date, each wrapped to the screen's width (the
// walk-through's two Samsung SDS rows both read "Samsung SDS Samsung Cloud Platfo").
void OfferList(AppState& app, const Offer* current) {
  std::string rows;  // what the rows say (tests)
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    const std::vector<RowLine> lines = {{OfferName(o)}, {OfferListPrice(o, app.scenario), true}};
    if (WrappedRow(app, "offer", "offer_text", static_cast<int>(i), current == &o, lines)) AppApplyOffer(app, o);
    if (ImGui::IsItemHovered()) OfferTooltip(o);
    rows += lines[0].text + "\n" + lines[1].text + "\n\n";
  }
  RecordText(app, "offer_rows", rows);
  if (app.scenario.pricing.offer[0] && ImGui::Selectable(Tr("offer.none"))) {
    app.scenario.pricing.offer[0] = '\0';
    AppScenarioEdited(app);
  }
}

}  // namespace

void DrawOfferPicker(AppState& app) {
  const Offer* current = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;
  // Who, what and where, as the list's rows name it, not the catalog id (issue 47).
  const std::string preview = current ? OfferName(*current) : app.scenario.pricing.offer[0] ? app.scenario.pricing.offer : Tr("offer.pick");
  ImGui::SetNextItemWidth(-1);
  // Rows are two lines (OfferRow): a list as tall as about ten of them, not the default eight lines. Closed, the
  // name whole, wrapped (a phone cut it: the two Samsung SDS offers both read "Samsung SDS Samsung Cloud Platfo").
  const bool open = WrappedCombo(app, "##offer", "offer_preview", preview, ImGuiComboFlags_HeightLarge);
  RecordRect(app, "pricing.offer");
  if (open) {
    OfferList(app, current);
    ImGui::EndCombo();
  } else if (current && ImGui::IsItemHovered()) {
    OfferTooltip(*current);
  }
  current = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;  // (picked just now)
  const std::string billing = current ? OfferBillingText(*current, &app.scenario, false) : "";
  RecordText(app, "offer_billing", billing);
  if (current) {  // what the offer filled of the billing, and what no source confirmed (kept as it was)
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", billing.c_str());
    ImGui::PopStyleColor();
  }
  if (AwaitsQuote(app.scenario)) DrawQuoteInput(app);
}

}  // namespace gpucost::app
