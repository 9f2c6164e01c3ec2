// The element families whose elements push on particles through corner slots (triangles,
// bending edges, tetrahedra, and the actuators' particle forces), run together: the rollout
// calls this once per pass, and a new family is one more type in ElementFamilyList below
// (its parameters are rows of the facts table, nudge/parameter_facts.h).
//
// Each family E provides, on the same backend as the rollout:
//   E(scene, exec)                               topology, rest shapes
//   kCorners, int count()                        corners per element, elements
//   std::vector<int> corner_particles(scene)     the particle at each of its corner slots
//   upload(params, exec)                         its parameters, before each forward
//   put_model(ModelView&, exec), put_grad(GradView&, exec)
//   compute_forces(exec, m, step, state, CornerOut force)
//   adjoint(exec, m, step, state, adj_f, CornerOut adj_x, CornerOut adj_v, const GradView&)
//   zero_gradients(exec), download_gradients(params, exec)
// Its forces and adjoints go through corner slots (kernels/corner_model.h), which this
// class allocates family after family and whose adjoints it gathers onto the particles.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "families/quadratic_drag/quadratic_drag_family.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/corner_slots.h"
#include "families/bending/bending_family.h"
#include "sim/step_pass.h"
#include "families/actuators/particle_force_family.h"
#include "families/tets/tet_family.h"
#include "families/triangles/triangle_family.h"

namespace nudge {

// In the order their corner slots are laid out and their gradients summed: part of the
// results' bits, so append, do not reorder.
template <class T, Backend Exec>
using ElementFamilyList = std::tuple<TriangleFamily<T, Exec>, BendingFamily<T, Exec>, TetFamily<T, Exec>,
                                     ParticleForceFamily<T, Exec>, QuadraticDragFamily<T, Exec>>;

template <class T, Backend Exec>
class ElementFamilies {
public:
  ElementFamilies(const Scene& scene, const Exec& exec)
      : families_(build(scene, exec, static_cast<Families*>(nullptr))),
        slots_(scene.particle_count(), slot_particles(scene), exec) {}

  const TriangleFamily<T, Exec>& triangles() const { return std::get<TriangleFamily<T, Exec>>(families_); }
  const TetFamily<T, Exec>& tets() const { return std::get<TetFamily<T, Exec>>(families_); }

  void upload(const ParameterSet& p, const Exec& exec) {
    each([&](auto& family, int) { family.upload(p, exec); });
  }

  std::optional<std::string> unsupported(const ParameterSet& p) const {
    std::optional<std::string> why;
    std::apply(
        [&](const auto&... family) {
          (
              (void)[&] {
                if constexpr (requires { family.unsupported(p); })
                  if (!why) why = family.unsupported(p);
              }(),
              ...);
        },
        families_);
    return why;
  }

  void put_model(ModelView<T>& m, const Exec& exec) const {
    std::apply([&](const auto&... family) { (family.put_model(m, exec), ...); }, families_);
    m.corners = slots_.model(exec);
  }

  void put_grad(GradView<T>& g, const Exec& exec) {
    each([&](auto& family, int) { family.put_grad(g, exec); });
  }

  // Every element's forces on its corners at this step, for the particle pass to gather.
  void interaction_forces(const StepPass<T, Exec>& pass) {
    each([&](auto& family, int first) {
      family.compute_forces(pass.exec, pass.m, pass.t, pass.state, slots_.force_out(pass.exec, first));
    });
  }

  // The elements' part of a step's adjoint: from dL/dF per particle (adj_f) to their
  // parameters' gradients, and their share of dL/dstate_t added to adj.
  void adjoint_interaction_forces(const AdjointPass<T, Exec>& pass) {
    const Exec& exec = pass.exec;
    each([&](auto& family, int first) {
      family.adjoint(exec, pass.m, pass.t, pass.state, pass.adj_f, slots_.adj_x_out(exec, first),
                     slots_.adj_v_out(exec, first), pass.grad);
    });
    slots_.gather_adjoint(exec, pass.m.corners, pass.adj);
  }

  void zero_gradients(const Exec& exec) {
    each([&](auto& family, int) { family.zero_gradients(exec); });
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    std::apply([&](const auto&... family) { (family.download_gradients(p, exec), ...); }, families_);
  }

private:
  using Families = ElementFamilyList<T, Exec>;

  template <class... F>
  static std::tuple<F...> build(const Scene& scene, const Exec& exec, std::tuple<F...>*) {
    return std::tuple<F...>(F(scene, exec)...);
  }

  // Calls f(family, its first corner slot) for each family in order.
  template <class F>
  void each(F&& f) {
    int first = 0;
    std::apply([&](auto&... family) { ((f(family, first), first += slot_count(family)), ...); }, families_);
  }
  template <class Family>
  static int slot_count(const Family& family) {
    return Family::kCorners * family.count();
  }

  // Every family's corner particles, family after family.
  std::vector<int> slot_particles(const Scene& scene) const {
    std::vector<int> all;
    std::apply(
        [&](const auto&... family) {
          (
              (void)[&] {
                const std::vector<int> at = family.corner_particles(scene);
                all.insert(all.end(), at.begin(), at.end());
              }(),
              ...);
        },
        families_);
    return all;
  }

  Families families_;
  CornerSlots<T, Exec> slots_;  // after families_, whose corners it is built from
};

}  // namespace nudge
