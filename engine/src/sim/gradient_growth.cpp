#include "nudge/gradient_growth.h"

#include <cmath>
#include <limits>

namespace nudge {

// ln|adj_t| is fitted, by least squares over every step with a finite nonzero adjoint,
// with a hinge: a constant from the onset s on, and a line rising going back from s,
// g_t = a + b max(s - t, 0). Every s is tried (prefix sums make each try O(1)); the one
// with the least residual is the onset, if its rise b s is at least ln(min_factor) and
// the hinge explains most of the variation (R^2 >= 0.75).
std::optional<GradientGrowth> find_gradient_growth(const std::vector<double>& norms, double min_factor) {
  const int count = static_cast<int>(norms.size());
  // Prefix sums over the usable steps before each index: n, t, t^2, g, t g.
  std::vector<double> pn(size_t(count) + 1, 0), pt(pn), ptt(pn), pg(pn), ptg(pn);
  double sgg = 0;
  for (int t = 0; t < count; ++t) {
    const double norm = norms[size_t(t)];
    const bool usable = norm > 0 && std::isfinite(norm);
    const double g = usable ? std::log(norm) : 0.0, w = usable ? 1.0 : 0.0;
    pn[size_t(t) + 1] = pn[size_t(t)] + w;
    pt[size_t(t) + 1] = pt[size_t(t)] + w * t;
    ptt[size_t(t) + 1] = ptt[size_t(t)] + w * t * t;
    pg[size_t(t) + 1] = pg[size_t(t)] + g;
    ptg[size_t(t) + 1] = ptg[size_t(t)] + t * g;
    sgg += g * g;
  }
  const double n = pn[size_t(count)], sg = pg[size_t(count)];
  if (n < 2 * kGradientGrowthMinSteps) return std::nullopt;
  const double tss = sgg - sg * sg / n;
  if (tss <= 0) return std::nullopt;
  double best_rss = std::numeric_limits<double>::infinity(), best_b = 0;
  int best_s = -1;
  for (int s = kGradientGrowthMinSteps; s < count; ++s) {
    const double m = pn[size_t(s)];  // usable steps before s, where x = s - t > 0
    if (m < kGradientGrowthMinSteps) continue;
    const double sx = m * s - pt[size_t(s)];
    const double sxx = m * s * s - 2.0 * s * pt[size_t(s)] + ptt[size_t(s)];
    const double sxg = s * pg[size_t(s)] - ptg[size_t(s)];
    const double var_x = sxx - sx * sx / n, cov = sxg - sx * sg / n;
    if (var_x <= 0) continue;
    const double b = cov / var_x;
    const double rss = tss - cov * cov / var_x;
    if (b > 0 && rss < best_rss) best_rss = rss, best_b = b, best_s = s;
  }
  if (best_s < 0 || 1.0 - best_rss / tss < 0.75 || best_b * best_s < std::log(min_factor)) return std::nullopt;
  return GradientGrowth{best_s, std::exp(best_b), std::exp(best_b * best_s)};
}

}  // namespace nudge
