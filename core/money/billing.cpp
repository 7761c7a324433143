// billing.cpp — the one billing engine (billing.h).
#include "money/billing.h"

#include <algorithm>
#include <cmath>

#include "money/tco.h"

namespace gpucost {

double CutSessionRounding(double inc, double min_s, double mean_s) {
  // E[ceil(L/inc) inc] = inc / (1 - e^{-inc/mean}) for L exponential: the rounding is inc/2 for sessions much
  // longer than the increment and inc - mean for much shorter ones.
  if (mean_s <= 0) return std::max(inc > 1 ? inc : 0.0, min_s);
  const double increments = inc > 1 ? inc / -std::expm1(-inc / mean_s) - mean_s : 0;
  return std::max({0.0, increments, min_s - mean_s});
}

void PlanBilling(const Scenario& s, double billed_gpus, const char* gpu, BillingTerms* t, Result* r) {
  const PricingInputs& pr = s.pricing;
  *t = BillingTerms{};
  const bool owned = Model(s) == PricingModel::kOwned;
  double price = pr.krw_per_gpu_hour > 0 ? pr.krw_per_gpu_hour / pr.krw_per_usd : pr.usd_per_gpu_hour;
  t->tax_rate = pr.tax_rate;
  t->vat_recoverable = pr.vat_recoverable;
  t->tax_divisor = pr.price_includes_tax ? 1 + pr.tax_rate : 1.0;
  if (owned) {
    OwnedInputs o = OwnedFor(s, gpu);
    const bool lifetime_commitment = o.other_use_fraction > 0;
    if (lifetime_commitment) o.utilization = 1;  // every hour of the servers' life is paid: by this job or others
    r->tco = ComputeTco(o, s.reliability.gpu_mtbf_hours);
    r->tco.source = OwnedSourceFor(s, gpu);
    r->tco.purchase_vat_usd_per_gpu = r->tco.upfront_usd_per_gpu * pr.tax_rate;
    if (OwnedCapexIsExample(s, gpu))
      r->warnings.Add("owned_capex_example", "msg.w_owned_capex_example",
                      {FormatParam("%.0f", o.capex_usd_per_gpu), gpu ? std::string(gpu) : std::string(s.cluster.gpu)});
    price = r->tco.usd_per_gpu_hour;
    t->taxable_fraction = r->tco.taxable_fraction;
    t->tax_divisor = 1;  // owned costs are entered before tax
    if (lifetime_commitment) {  // owned on a commitment's terms (pricing.owned.other_use_fraction)
      t->committed_gpus = billed_gpus;
      t->term_hours = o.lifetime_years * kHoursPerYear;
      t->committed_price_pretax = price;
      t->unused_paid_fraction = 1 - o.other_use_fraction;
    }
  }
  if (Model(s) == PricingModel::kReserved) {
    const double committed = pr.reserved.committed_gpus > 0 ? static_cast<double>(pr.reserved.committed_gpus) : billed_gpus;
    const double on_demand = pr.reserved.usd_per_gpu_hour_on_demand > 0 ? pr.reserved.usd_per_gpu_hour_on_demand : price;
    const double above = std::max(0.0, billed_gpus - committed);
    t->committed_price_pretax = price / t->tax_divisor;
    if (billed_gpus > 0) price = (std::min(billed_gpus, committed) * price + above * on_demand) / billed_gpus;
    t->committed_gpus = committed;
    t->term_hours = pr.reserved.term_months * kHoursPerMonth;
    t->unused_paid_fraction = 1 - pr.reserved.other_use_fraction;
  }
  t->bill_rounding = !owned;
  t->billing_increment_s = pr.billing_increment_seconds;
  t->minimum_billed_s = pr.minimum_billed_seconds;
  t->price_pretax = price / t->tax_divisor;
  // Storage, egress and fees are services bought on the scenario's tax basis (owned or rented alike).
  const double services_divisor = pr.price_includes_tax ? 1 + pr.tax_rate : 1.0;
  t->usd_per_gb_month = s.storage.usd_per_gb_month / services_divisor;
  t->retention_hours = s.storage.retention_days * 24;
  t->egress_usd = s.storage.egress_gb * s.storage.usd_per_gb_egress / services_divisor;
  t->fees_usd = pr.fixed_fees_usd / services_divisor;
  r->usd_per_gpu_hour = t->price_pretax;
  r->display_currency = pr.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD";
  r->display_per_usd = pr.currency == static_cast<int>(Currency::kKrw) ? pr.krw_per_usd : 1.0;
}

BillingTerms WithPoolPrice(const BillingTerms& t, double entered) {
  BillingTerms p = t;
  if (entered <= 0 || t.taxable_fraction != 1 || !t.bill_rounding) return p;  // owned: its own TCO
  p.price_pretax = entered / t.tax_divisor;
  if (p.committed_gpus > 0) p.committed_price_pretax = p.price_pretax;
  return p;
}

void BillGpuTime(const BillingTerms& t, const Usage& u, JobBill* out) {
  double g[kPartCount] = {};
  for (int p = 0; p < kPartCount; ++p) g[p] = u.gpu_hours.part[p];
  // Billing increments and minimums, per rental session: every billed GPU holds a rental across the wall time
  // (rounded exactly); each cut session (a preemption, a scale event) starts one more, whose random length adds
  // one more rounding (CutSessionRounding).
  if (t.bill_rounding && u.billed_gpus > 0) {
    const double inc = t.billing_increment_s;
    const double wall = u.wall_s;
    const double billed = std::max(std::ceil(wall / inc - 1e-9) * inc, t.minimum_billed_s);
    double rounding_gpu_s = u.billed_gpus * std::max(0.0, billed - wall);
    if (u.cut_sessions > 0 && u.session_gpus > 0) {
      const double sessions_per_holder = 1 + u.cut_sessions / std::max(1.0, u.billed_gpus / u.session_gpus);
      rounding_gpu_s += u.cut_sessions * u.session_gpus *
                        CutSessionRounding(inc, t.minimum_billed_s, wall / sessions_per_holder);
    }
    if (u.exact_rounding_gpu_s >= 0) rounding_gpu_s = u.exact_rounding_gpu_s;
    g[kPartBillingRounding] += rounding_gpu_s / 3600;
  }
  double gpu_usd = 0;
  for (int p = 0; p < kPartCount; ++p) {
    if (p == kPartUnusedCommitment || p == kPartStorage || p == kPartEgress || p == kPartFees || p == kPartTax) continue;
    out->gpu_hours.part[p] += g[p];
    const double usd = p == kPartReacquireWait ? 0 : g[p] * t.price_pretax;  // waiting for capacity is not billed
    out->cost_usd.part[p] += usd;
    gpu_usd += usd;
  }
  // A commitment is paid for every hour of its term (renewed while the work runs longer): GPUs committed above
  // the pool's size while it runs, and all of them for the rest of the term, less what other work uses.
  if (t.committed_gpus > 0) {
    const double rounding_hours = u.billed_gpus > 0 ? g[kPartBillingRounding] / u.billed_gpus : 0;
    const double after_hours = std::max(0.0, t.term_hours - u.held_hours - rounding_hours);
    const double committed_usd = t.committed_price_pretax * t.unused_paid_fraction;
    const double above_gpus = std::max(0.0, t.committed_gpus - u.billed_gpus);
    const double after_usd = t.committed_gpus * after_hours * committed_usd * u.commitment_share;
    out->commitment_after_job_usd += after_usd;
    // The committed GPUs above the pool sit unused while it runs, its billed rounding included (the term after it
    // starts after that rounding).
    const double unused = above_gpus * (u.held_above_hours + rounding_hours) * committed_usd + after_usd;
    out->cost_usd.part[kPartUnusedCommitment] += unused;
    gpu_usd += unused;
  }
  out->gpu_usd += gpu_usd;
  out->taxable_usd += gpu_usd * t.taxable_fraction;
}

void FinishBill(const BillingTerms& t, double stored_gb, double hours, JobBill* out) {
  double* m = out->cost_usd.part;
  m[kPartStorage] = stored_gb * t.usd_per_gb_month * (hours + t.retention_hours) / kHoursPerMonth;
  m[kPartEgress] = t.egress_usd;
  m[kPartFees] = t.fees_usd;
  out->taxable_usd += m[kPartStorage] + m[kPartEgress] + m[kPartFees];
  out->vat_usd = out->taxable_usd * t.tax_rate;
  m[kPartTax] = t.vat_recoverable ? 0 : out->vat_usd;
  out->billed_gpu_hours = out->gpu_hours.Total();
  out->usd = out->cost_usd.Total();
}

}  // namespace gpucost
