#include "nudge/step_stability.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "kernels/dihedral_bending.h"
#include "kernels/tet_neohookean.h"
#include "kernels/triangle_membrane.h"

namespace nudge {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

// How much one step multiplies a small change, in logarithm: a damper's 1 - g both
// shrinks (g < 2) and grows (g > 2) it; a stiffness below the limit only turns it (an
// oscillation: |factor| 1), above it grows it by about g - 1.
double log_growth(double gain, bool damper) {
  if (gain >= kUnstableGain) return std::log(gain - 1);
  return damper ? std::log(std::max(std::fabs(1 - gain), 1e-300)) : 0.0;
}

// The run of steps over which the growth of one force on one particle compounds most
// (a largest-sum run of the logarithms), with its peak gain.
class WorstRun {
public:
  void step(int t, double gain, bool damper) {
    const double g = log_growth(gain, damper);
    if (sum_ <= 0) sum_ = 0, first_ = t, peak_ = 0;
    sum_ += g;
    peak_ = std::max(peak_, gain);
    if (sum_ > best_sum_) best_sum_ = sum_, best_first_ = first_, best_last_ = t, best_peak_ = peak_;
  }
  double growth() const { return std::exp(std::min(best_sum_, 700.0)); }
  double peak() const { return best_peak_; }
  int first() const { return best_first_; }
  int last() const { return best_last_; }

private:
  double sum_ = 0, peak_ = 0, best_sum_ = 0, best_peak_ = 0;
  int first_ = 0, best_first_ = 0, best_last_ = 0;
};

// Keeps the worst issue of one kind of force.
struct Worst {
  StepStabilityIssue issue;
  void offer(double growth, const std::function<StepStabilityIssue()>& describe) {
    if (growth >= kReportedGrowth && growth > issue.growth) issue = describe();
  }
};

// Per particle: the stiffness and viscosity of the elements at it, summed.
struct ElementGains {
  explicit ElementGains(int n) : stiffness(size_t(n), 0.0), viscosity(size_t(n), 0.0), count(size_t(n), 0) {}
  void add(int i, double k, double c) {
    stiffness[size_t(i)] += k;
    viscosity[size_t(i)] += c;
    ++count[size_t(i)];
  }
  std::vector<double> stiffness, viscosity;
  std::vector<int> count;
};

}  // namespace

std::string StepStabilityIssue::message() const {
  return force + " (" + where + "): a gain of up to " + number(gain) + " per step, above the explicit step's limit " +
         number(kUnstableGain) + ", so gradients through it grow about " + number(growth) + "x; " + advice;
}

std::vector<StepStabilityIssue> step_stability_issues(const Scene& scene, const Trajectory& traj) {
  const int n = scene.particle_count();
  if (traj.particles != n || n == 0) return {};
  const double dt = scene.settings.dt;
  const int steps = traj.steps;
  const std::vector<double>& mass = scene.params[ParamId::Mass].value;
  const auto inverse_mass = [&](int i) { return scene.pinned[size_t(i)] ? 0.0 : 1.0 / mass[size_t(i)]; };
  const auto run_text = [&](int first, int last) {
    return "steps " + std::to_string(first) + " to " + std::to_string(last) + ", t = " + number(first * dt) + " to " +
           number(last * dt) + " s";
  };

  Worst spring_stiffness, spring_damping, tet_stiffness, tet_damping, triangle_stiffness, triangle_damping,
      bending_stiffness, bending_damping, ground_stiffness, ground_damping, friction;
  // The implicit step (Integrator::ImplicitEuler) treats springs and the element families
  // implicitly: no limit there.
  const bool implicit = scene.settings.integrator == Integrator::ImplicitEuler;
  // A spring's gains are the same every step: they compound over the whole motion.
  for (int s = 0; s < (implicit ? 0 : scene.spring_count()); ++s) {
    const double w = inverse_mass(scene.spring_a[size_t(s)]) + inverse_mass(scene.spring_b[size_t(s)]);
    const double k = scene.params[ParamId::Stiffness].value[size_t(s)];
    const double c = scene.params[ParamId::Damping].value[size_t(s)];
    const double stiff = dt * std::sqrt(k * w), damp = dt * c * w;
    const std::string name = "spring " + std::to_string(s);
    spring_stiffness.offer(std::exp(std::min(steps * log_growth(stiff, false), 700.0)), [&] {
      return StepStabilityIssue{
          "spring stiffness", name, stiff, std::exp(std::min(steps * log_growth(stiff, false), 700.0)),
          "lower dt below " + number(kUnstableGain / std::sqrt(k * w)) + " s or the stiffness below " +
              number(kUnstableGain * kUnstableGain / (dt * dt * w)) + " N/m"};
    });
    spring_damping.offer(std::exp(std::min(steps * log_growth(damp, true), 700.0)), [&] {
      return StepStabilityIssue{"spring damping", name, damp, std::exp(std::min(steps * log_growth(damp, true), 700.0)),
                                "lower dt below " + number(kUnstableGain / (c * w)) + " s or the damping below " +
                                    number(kUnstableGain / (dt * w)) + " N s/m"};
    });
  }

  // Elements on several particles pull a corner back with a stiffness and damp it with a
  // viscosity that sum, at a particle, over its elements; as for a spring, relative
  // motion doubles the gain's square.
  // motion: 2 where the sums are of a corner's own stiffness (relative motion doubles
  // the gain's square), 1 where they already hold the coupled corners' shares.
  const auto offer_element_gains = [&](const ElementGains& g, const std::string& plural, const std::string& stiff_words,
                                       const std::string& damp_words, Worst& worst_stiffness, Worst& worst_damping,
                                       double motion = 2) {
    for (int i = 0; i < n; ++i) {
      const double w = motion * inverse_mass(i), k = g.stiffness[size_t(i)], c = g.viscosity[size_t(i)];
      if (g.count[size_t(i)] == 0 || w == 0) continue;
      const double stiff = dt * std::sqrt(k * w), damp = dt * c * w;
      const double growth_k = std::exp(std::min(steps * log_growth(stiff, false), 700.0));
      const double growth_c = std::exp(std::min(steps * log_growth(damp, true), 700.0));
      const std::string name =
          "particle " + std::to_string(i) + ", in " + std::to_string(g.count[size_t(i)]) + " " + plural;
      worst_stiffness.offer(growth_k, [&] {
        return StepStabilityIssue{plural.substr(0, plural.size() - 1) + " stiffness", name, stiff, growth_k,
                                  "lower dt below " + number(kUnstableGain / std::sqrt(k * w)) + " s or its " + plural +
                                      "' " + stiff_words + " by a factor " +
                                      number(stiff * stiff / (kUnstableGain * kUnstableGain))};
      });
      worst_damping.offer(growth_c, [&] {
        return StepStabilityIssue{plural.substr(0, plural.size() - 1) + " damping", name, damp, growth_c,
                                  "lower dt below " + number(kUnstableGain / (c * w)) + " s or its " + plural + "' " +
                                      damp_words + " by a factor " + number(damp / kUnstableGain)};
      });
    }
  };
  const std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
  const auto at = [&](int i) { return Vec3<double>{x0[3 * size_t(i)], x0[3 * size_t(i) + 1], x0[3 * size_t(i) + 2]}; };

  // A tet pulls corner j back with a stiffness of about V (k_mu + k_lambda) |b_j|^2 and
  // damps it with about 2 V k_damp |b_j|^2, b_j the gradient of the corner's barycentric
  // coordinate (a row of the rest inverse B, or minus their sum for corner 0).
  if (scene.tet_count() > 0 && !implicit) {
    ElementGains g(n);
    for (int t = 0; t < scene.tet_count(); ++t) {
      const int* c = &scene.tets[4 * size_t(t)];
      const TetRest<double> rest = tet_rest(at(c[0]), at(c[1]), at(c[2]), at(c[3]));
      if (rest.status != TetRestStatus::ok) continue;
      const Mat33<double>& b = rest.rest_inverse;
      Vec3<double> row[4];
      for (int j = 0; j < 3; ++j) row[j + 1] = Vec3<double>{b(j, 0), b(j, 1), b(j, 2)};
      row[0] = -(row[1] + row[2] + row[3]);
      const double k =
          scene.params[ParamId::TetMu].value[size_t(t)] + scene.params[ParamId::TetLambda].value[size_t(t)];
      const double kd = scene.params[ParamId::TetDamping].value[size_t(t)];
      for (int j = 0; j < 4; ++j)
        g.add(c[j], rest.volume * k * dot(row[j], row[j]), 2 * rest.volume * kd * dot(row[j], row[j]));
    }
    offer_element_gains(g, "tets", "k_mu + k_lambda", "k_damp", tet_stiffness, tet_damping);
  }

  // A triangle likewise, in its plane: about A (ke + ka) |b_j|^2 and 2 A kd |b_j|^2, b_j
  // a row of the inverse rest pose D (or minus their sum for corner 0).
  if (scene.triangle_count() > 0 && !implicit) {
    ElementGains g(n);
    for (int t = 0; t < scene.triangle_count(); ++t) {
      const int* c = &scene.triangles[3 * size_t(t)];
      const TriangleRest<double> rest = triangle_rest(at(c[0]), at(c[1]), at(c[2]));
      if (!(rest.area > 0)) continue;
      double row[3][2] = {{0, 0}, {rest.pose[0], rest.pose[1]}, {rest.pose[2], rest.pose[3]}};
      row[0][0] = -(row[1][0] + row[2][0]), row[0][1] = -(row[1][1] + row[2][1]);
      const double k = scene.params[ParamId::TriangleStiffness].value[size_t(t)] +
                       scene.params[ParamId::TriangleAreaStiffness].value[size_t(t)];
      const double kd = scene.params[ParamId::TriangleDamping].value[size_t(t)];
      for (int j = 0; j < 3; ++j) {
        const double b2 = row[j][0] * row[j][0] + row[j][1] * row[j][1];
        g.add(c[j], rest.area * k * b2, 2 * rest.area * kd * b2);
      }
    }
    offer_element_gains(g, "triangles", "stiffness + area stiffness", "damping", triangle_stiffness, triangle_damping);
  }

  // A bending edge pulls along d = dtheta/dx (kernels/dihedral_bending.h) with a stiffness
  // l ke d d^T and a damping l kd d d^T over its four corners: a corner's row of them
  // sums to l k |d_i| sum_j |d_j| (a Gershgorin bound of the coupled gain, pinned corners
  // left out), summed over the particle's edges. The drape blows up at a row sum of 4
  // (its bending damping 0.002) and runs at 1 (0.0005).
  if (scene.bending_count() > 0 && !implicit) {
    ElementGains g(n);
    for (int e = 0; e < scene.bending_count(); ++e) {
      const int* c = &scene.bending[4 * size_t(e)];
      const Vec3<double> corners[4] = {at(c[0]), at(c[1]), at(c[2]), at(c[3])};
      const BendingGeometry<double> geometry = bending_geometry(corners);
      if (!geometry.valid) continue;
      double moving = 0;
      for (int j = 0; j < 4; ++j) moving += scene.pinned[size_t(c[j])] ? 0.0 : length(geometry.d[j]);
      const double ke = scene.params[ParamId::BendingStiffness].value[size_t(e)];
      const double kd = scene.params[ParamId::BendingDamping].value[size_t(e)];
      for (int j = 0; j < 4; ++j) {
        const double row = geometry.e_len * length(geometry.d[j]) * moving;
        g.add(c[j], ke * row, kd * row);
      }
    }
    offer_element_gains(g, "bending edges", "bending stiffness", "bending damping", bending_stiffness, bending_damping,
                        1);
  }

  const Ground& ground = scene.settings.ground;
  if (ground.enabled && ground.contact == GroundContact::Penalty) {  // the projection has no stiffness
    const double k = scene.params[ParamId::GroundStiffness].value[0];
    const double mu = scene.params[ParamId::Friction].value[0];
    const double eps = ground.contact_smoothing, eta = ground.friction_smoothing;
    for (int i = 0; i < n; ++i) {
      const double w = inverse_mass(i);
      if (w == 0) continue;
      WorstRun stiffness, damping, slip;
      for (int t = 0; t <= steps; ++t) {
        const double* x = &traj.x[(size_t(t) * size_t(n) + size_t(i)) * 3];
        const double* v = &traj.v[(size_t(t) * size_t(n) + size_t(i)) * 3];
        // The penalty switches on smoothly (kernels/ground_contact.h): depth eps softplus(z),
        // its slope in y the gate sigmoid(z).
        const double z = -(x[1] - ground.height) / eps;
        const double gate = z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
        const double normal = k * eps * (std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))));
        stiffness.step(t, dt * std::sqrt(k * gate * w), false);
        damping.step(t, dt * ground.damping * gate * w, true);
        // Friction -mu N v_t / q, q = sqrt(|v_t|^2 + eta^2), damps a change of the slip
        // velocity along the slip with viscosity mu N eta^2 / q^3 (across it, mu N / q, which
        // planar motions never excite): below the slip speed eta, a damper of mu N / eta.
        const double q = std::sqrt(v[0] * v[0] + v[2] * v[2] + eta * eta);
        const double gain = dt * mu * normal * w * eta * eta / (q * q * q);
        slip.step(t, gain, true);
      }
      const std::string particle = "particle " + std::to_string(i) + ", ";
      ground_stiffness.offer(stiffness.growth(), [&] {
        return StepStabilityIssue{"ground stiffness", particle + run_text(stiffness.first(), stiffness.last()),
                                  stiffness.peak(), stiffness.growth(),
                                  "lower dt below " + number(kUnstableGain / std::sqrt(k * w)) +
                                      " s or the ground stiffness below " +
                                      number(kUnstableGain * kUnstableGain / (dt * dt * w)) + " N/m"};
      });
      ground_damping.offer(damping.growth(), [&] {
        return StepStabilityIssue{
            "ground damping", particle + run_text(damping.first(), damping.last()), damping.peak(), damping.growth(),
            "lower dt or the ground damping below " + number(kUnstableGain / (dt * w)) + " N s/m"};
      });
      friction.offer(slip.growth(), [&] {
        // The slip speed at which the peak gain would be at the limit.
        const double eta_needed = slip.peak() * eta / kUnstableGain;
        return StepStabilityIssue{"ground friction", particle + run_text(slip.first(), slip.last()), slip.peak(),
                                  slip.growth(),
                                  "raise simulation.ground.friction_smoothing above " + number(eta_needed) +
                                      " m/s or lower dt below " + number(dt * kUnstableGain / slip.peak()) + " s"};
      });
    }
  }

  std::vector<StepStabilityIssue> issues;
  for (Worst* worst :
       {&spring_stiffness, &spring_damping, &tet_stiffness, &tet_damping, &triangle_stiffness, &triangle_damping,
        &bending_stiffness, &bending_damping, &ground_stiffness, &ground_damping, &friction})
    if (worst->issue.growth > 0) issues.push_back(worst->issue);
  std::sort(issues.begin(), issues.end(), [](const auto& a, const auto& b) { return a.growth > b.growth; });
  return issues;
}

}  // namespace nudge
