// Quadratic drag in the wind, per particle (quadratic_drag.h): an element family of
// ElementFamilies (sim/element_families.h) with one corner, its particle. One
// thread per particle writes -c |v - w| (v - w) into its corner slot; backwards, one
// thread per particle turns dL/dF into its corner's dL/dv, dL/dc and its share of dL/dwind
// (summed over particles in their order, after the triangles' share).
//
// Present only in a scene that has it: some coefficient is not 0, or the coefficients
// are optimised. Otherwise it has no elements and costs nothing, and the coefficients'
// gradient reads 0 (the rollout does not compute the sensitivity to a drag the scene
// lacks); a simulator built from such a scene refuses values with drag rather than
// ignore them (unsupported).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "families/quadratic_drag/quadratic_drag.h"
#include "kernels/corner_model.h"
#include "kernels/model.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/element_params.h"
#include "sim/soa.h"

namespace nudge {

template <class T>
struct QuadraticDragForceKernel {  // over particles
  const T* c;
  Vec3<T> wind;
  StateView<const T> state;
  int n;
  CornerOut<T> force;
  NUDGE_HD void operator()(int i) const {
    force.store(0, n, i, quadratic_drag_force(c[i], load3(state.v, i, n), wind));
  }
};

template <class T>
struct QuadraticDragAdjointKernel {  // over particles
  const T* c;
  Vec3<T> wind;
  StateView<const T> state;
  int n;
  const T* adj_f;  // 3 x n
  CornerOut<T> adj_x, adj_v;
  T* grad_c;     // n; null in the implicit step's operator products
  T* grad_wind;  // 3 x n: each particle's share; null with grad_c
  NUDGE_HD void operator()(int i) const {
    const QuadraticDragAdjoint<T> g = quadratic_drag_adjoint(c[i], load3(state.v, i, n), wind, load3(adj_f, i, n));
    adj_x.store(0, n, i, Vec3<T>{0, 0, 0});
    adj_v.store(0, n, i, g.v);
    if (!grad_c) return;
    grad_c[i] += g.c;
    add3(grad_wind, i, n, -g.v);
  }
};

template <class T, Backend Exec>
class QuadraticDragFamily {
public:
  QuadraticDragFamily(const Scene& scene, const Exec&)
      : count_(present(scene.params[ParamId::QuadraticDrag]) ? scene.particle_count() : 0),
        params_({ParamId::QuadraticDrag}, count_) {}

  static constexpr int kCorners = 1;
  int count() const { return count_; }

  std::vector<int> corner_particles(const Scene&) const {
    std::vector<int> at(static_cast<size_t>(count_));
    for (int i = 0; i < count_; ++i) at[size_t(i)] = i;
    return at;
  }

  std::optional<std::string> unsupported(const ParameterSet& p) const {
    if (count_ > 0 || !present(p[ParamId::QuadraticDrag])) return std::nullopt;
    return std::string(
        "particles.quadratic_drag: the simulator was built from a scene without quadratic drag, "
        "so it cannot run values that have some; build it from a scene with the drag set "
        "(or its coefficients optimised)");
  }

  void upload(const ParameterSet& p, const Exec& exec) {
    if (count_ == 0) return;
    params_.upload(p, exec);
    for (int k = 0; k < 3; ++k) wind_[k] = static_cast<T>(p[ParamId::Wind].value[size_t(k)]);
  }

  void put_model(ModelView<T>&, const Exec&) const {}  // its kernels carry what they read

  void compute_forces(const Exec& exec, const ModelView<T>&, int /*step*/, StateView<const T> state,
                      CornerOut<T> force) {
    if (count_ == 0) return;
    exec.launch(count_, QuadraticDragForceKernel<T>{params_.value(exec, 0), wind(), state, count_, force});
  }

  void adjoint(const Exec& exec, const ModelView<T>&, int /*step*/, StateView<const T> state, const T* adj_f,
               CornerOut<T> adj_x, CornerOut<T> adj_v, const GradView<T>& grad) {
    if (count_ == 0) return;
    const bool keep = !grad.operator_product;
    exec.launch(count_, QuadraticDragAdjointKernel<T>{params_.value(exec, 0), wind(), state, count_, adj_f, adj_x,
                                                      adj_v, keep ? params_.grad(exec, 0) : nullptr,
                                                      keep ? exec.data(g_wind_) : nullptr});
  }

  void zero_gradients(const Exec& exec) {
    params_.zero_gradients(exec);
    exec.resize(g_wind_, 3 * size_t(count_));
    exec.zero(g_wind_);
  }
  void put_grad(GradView<T>&, const Exec&) {}

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    if (count_ == 0) return;
    params_.download_gradients(p, exec);
    // dL/dwind: the particles' shares in particle order, added to the families' before it.
    const std::vector<double> wind = fetch_values(exec, exec.data(g_wind_), 3 * size_t(count_));
    for (int k = 0; k < 3; ++k)
      p[ParamId::Wind].grad[size_t(k)] +=
          ordered_sum(std::vector<double>(wind.begin() + k * size_t(count_), wind.begin() + (k + 1) * size_t(count_)));
  }

private:
  using Array = typename Exec::template Array<T>;

  static bool present(const Parameter& c) {
    return c.optimize || std::any_of(c.value.begin(), c.value.end(), [](double x) { return x != 0.0; });
  }
  Vec3<T> wind() const { return {wind_[0], wind_[1], wind_[2]}; }

  int count_;
  ElementParams<T, Exec, 1> params_;  // c per particle and its gradient
  T wind_[3] = {0, 0, 0};
  Array g_wind_;  // 3 x n: each particle's share of dL/dwind
};

}  // namespace nudge
