// Triangles: cloth membranes with drag and lift in a wind (families/triangles/triangle_membrane.h,
// Warp's eval_triangles). Owns the triangles' corners, rest shapes, parameters
// (stiffness, area stiffness, damping, drag, lift per triangle; the wind), scratch and
// gradients, and its schedule, the same on both backends: one thread per triangle writes
// the forces on its three corners into their corner slots (kernels/corner_model.h),
// which the particle pass gathers; backwards, one thread per triangle turns the
// particles' dL/dF into its gradients and its corners' dL/dstate, which the particles
// gather likewise. No two threads add to one address, so the results do not depend on
// the thread count. An element family of ElementFamilies (element_families.h).
//
// The rest shape (inverse rest pose and area) is each triangle's shape in the scene's
// initial positions, taken when the rollout is built, as a spring's default rest length
// is its initial length when the scene is loaded: it is a constant of the rollout, so
// the initial positions' gradient does not go through it.
#pragma once

#include <vector>

#include "kernels/corner_model.h"
#include "families/triangles/triangle_kernels.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/element_params.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class TriangleFamily {
public:
  TriangleFamily(const Scene& scene, const Exec& exec)
      : tri_(scene.triangle_count()), params_({ParamId::TriangleStiffness, ParamId::TriangleAreaStiffness,
                                               ParamId::TriangleDamping, ParamId::TriangleDrag, ParamId::TriangleLift},
                                              tri_) {
    upload_topology(scene, exec);
  }

  static constexpr int kCorners = 3;
  int count() const { return tri_; }

  // The particle at each of its corner slots: corner c of triangle t at c Tri + t.
  std::vector<int> corner_particles(const Scene& scene) const {
    std::vector<int> at(3 * size_t(tri_));
    for (int t = 0; t < tri_; ++t)
      for (int c = 0; c < 3; ++c) at[size_t(c) * tri_ + t] = scene.triangles[3 * size_t(t) + c];
    return at;
  }

  void upload(const ParameterSet& p, const Exec& exec) {
    params_.upload(p, exec);
    for (int k = 0; k < 3; ++k) wind_[k] = static_cast<T>(p[ParamId::Wind].value[k]);
  }

  void put_model(ModelView<T>& m, const Exec& exec) const { m.triangles = model(exec); }

  TriangleModel<T> model(const Exec& exec) const {
    TriangleModel<T> tm;
    tm.count = tri_;
    tm.corner = exec.data(corner_);
    tm.pose = exec.data(pose_);
    tm.area = exec.data(area_);
    tm.ke = params_.value(exec, kKe);
    tm.ka = params_.value(exec, kKa);
    tm.kd = params_.value(exec, kKd);
    tm.drag = params_.value(exec, kDrag);
    tm.lift = params_.value(exec, kLift);
    for (int k = 0; k < 3; ++k) tm.wind[k] = wind_[k];
    return tm;
  }

  // Each triangle's forces on its corners at this step, for the particle pass to gather.
  void compute_forces(const Exec& exec, const ModelView<T>& m, int /*step*/, StateView<const T> state,
                      CornerOut<T> force) {
    if (tri_ == 0) return;
    exec.launch(tri_, TriangleForceKernel<T>{m, state, force});
  }

  // The triangles' part of a step's adjoint: from dL/dF per particle (adj_f) to their
  // parameter gradients and their corners' share of dL/dstate_t.
  void adjoint(const Exec& exec, const ModelView<T>& m, int /*step*/, StateView<const T> state, const T* adj_f,
               CornerOut<T> adj_x, CornerOut<T> adj_v, const GradView<T>& grad) {
    if (tri_ == 0) return;
    exec.launch(tri_, TriangleAdjointKernel<T>{m, state, adj_f, adj_x, adj_v, grad.triangles});
  }

  void zero_gradients(const Exec& exec) {
    params_.zero_gradients(exec);
    exec.resize(g_wind_, 3 * size_t(tri_));
    exec.zero(g_wind_);
  }

  void put_grad(GradView<T>& g, const Exec& exec) { g.triangles = grad(exec); }

  TriangleGrad<T> grad(const Exec& exec) {
    return {params_.grad(exec, kKe),   params_.grad(exec, kKa),   params_.grad(exec, kKd),
            params_.grad(exec, kDrag), params_.grad(exec, kLift), exec.data(g_wind_)};
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    params_.download_gradients(p, exec);
    // dL/dwind: the triangles' shares summed in triangle order, added to what the
    // families before it in the list put there (the rollout zeroes it first).
    const std::vector<double> wind = fetch_values(exec, exec.data(g_wind_), 3 * size_t(tri_));
    for (int k = 0; k < 3; ++k)
      p[ParamId::Wind].grad[k] +=
          ordered_sum(std::vector<double>(wind.begin() + k * size_t(tri_), wind.begin() + (k + 1) * size_t(tri_)));
  }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  void upload_topology(const Scene& scene, const Exec& exec) {
    const std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
    std::vector<int> corner = corner_particles(scene);
    std::vector<T> pose(4 * size_t(tri_)), area(tri_);
    for (int t = 0; t < tri_; ++t) {
      Vec3<double> p[3];
      for (int c = 0; c < 3; ++c) {
        const int i = corner[size_t(c) * tri_ + t];
        p[c] = Vec3<double>{x0[3 * size_t(i)], x0[3 * size_t(i) + 1], x0[3 * size_t(i) + 2]};
      }
      // In double whatever T is, like the rest lengths, which the scene holds in double.
      const TriangleRest<double> rest = triangle_rest(p[0], p[1], p[2]);
      for (int k = 0; k < 4; ++k) pose[size_t(k) * tri_ + t] = static_cast<T>(rest.pose[k]);
      area[t] = static_cast<T>(rest.area);
    }
    exec.upload(corner_, corner);
    exec.upload(pose_, pose);
    exec.upload(area_, area);
  }

  int tri_;
  T wind_[3] = {0, 0, 0};
  // Topology and rest shapes (constant for the scene) and parameters (uploaded each forward).
  IntArray corner_;
  Array pose_, area_;
  enum { kKe, kKa, kKd, kDrag, kLift };  // params_' rows
  ElementParams<T, Exec, 5> params_;     // ke, ka, kd, drag, lift and their gradients
  Array g_wind_;                         // per-triangle shares of dL/dwind
};

}  // namespace nudge
