// Bending edges: dihedral bending between two triangles that share an edge
// (families/bending/dihedral_bending.h, Warp's eval_bending). Owns the edges' four particles,
// rest angles, parameters (stiffness and damping per edge) and gradients, and its
// schedule, the same on both backends: one thread per edge writes the forces on its
// four particles into their corner slots (kernels/corner_model.h); backwards, one thread
// per edge turns the particles' dL/dF into its gradients and its corners' dL/dstate. An
// element family of ElementFamilies (element_families.h).
//
// The rest angle is each edge's angle in the scene's initial positions, taken when the
// rollout is built (as a triangle's rest shape is): a constant of the rollout, so the
// initial positions' gradient does not go through it.
#pragma once

#include <vector>

#include "families/bending/bending_kernels.h"
#include "kernels/corner_model.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/element_params.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class BendingFamily {
public:
  BendingFamily(const Scene& scene, const Exec& exec)
      : edges_(scene.bending_count()), params_({ParamId::BendingStiffness, ParamId::BendingDamping}, edges_) {
    const std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
    const std::vector<int> corner = corner_particles(scene);
    std::vector<T> rest(edges_);
    for (int e = 0; e < edges_; ++e) {
      Vec3<double> p[4];
      for (int c = 0; c < 4; ++c) {
        const int i = corner[size_t(c) * edges_ + e];
        p[c] = Vec3<double>{x0[3 * size_t(i)], x0[3 * size_t(i) + 1], x0[3 * size_t(i) + 2]};
      }
      rest[e] = static_cast<T>(dihedral_rest_angle(p));  // in double whatever T is
    }
    exec.upload(corner_, corner);
    exec.upload(rest_, rest);
  }

  static constexpr int kCorners = 4;
  int count() const { return edges_; }

  // The particle at each of its corner slots: corner c of edge e at c E + e.
  std::vector<int> corner_particles(const Scene& scene) const {
    std::vector<int> at(4 * size_t(edges_));
    for (int e = 0; e < edges_; ++e)
      for (int c = 0; c < 4; ++c) at[size_t(c) * edges_ + e] = scene.bending[4 * size_t(e) + c];
    return at;
  }

  void upload(const ParameterSet& p, const Exec& exec) { params_.upload(p, exec); }

  void put_model(ModelView<T>& m, const Exec& exec) const {
    m.bending = BendingModel<T>{edges_, exec.data(corner_), exec.data(rest_), params_.value(exec, kKe),
                                params_.value(exec, kKd)};
  }

  void compute_forces(const Exec& exec, const ModelView<T>& m, int /*step*/, StateView<const T> state,
                      CornerOut<T> force) {
    if (edges_ == 0) return;
    exec.launch(edges_, BendingForceKernel<T>{m, state, force});
  }

  void adjoint(const Exec& exec, const ModelView<T>& m, int /*step*/, StateView<const T> state, const T* adj_f,
               CornerOut<T> adj_x, CornerOut<T> adj_v, const GradView<T>& grad) {
    if (edges_ == 0) return;
    exec.launch(edges_, BendingAdjointKernel<T>{m, state, adj_f, adj_x, adj_v, grad.bending});
  }

  void zero_gradients(const Exec& exec) { params_.zero_gradients(exec); }

  void put_grad(GradView<T>& g, const Exec& exec) {
    g.bending = BendingGrad<T>{params_.grad(exec, kKe), params_.grad(exec, kKd)};
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const { params_.download_gradients(p, exec); }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  int edges_;
  IntArray corner_;
  Array rest_;                        // rest angles, constant for the scene
  enum { kKe, kKd };                  // params_' rows
  ElementParams<T, Exec, 2> params_;  // edge_ke, edge_kd and their gradients
};

}  // namespace nudge
