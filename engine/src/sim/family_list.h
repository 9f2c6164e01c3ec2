// Every family of a rollout in one ordered list, and the phases of a step that the
// rollout runs over it. No family is named here or in the rollout: a family is one more
// entry in the list (sim/rollout.h), and it takes part in the phases whose members it
// has (detected with `requires`; a family without a phase costs nothing there).
//
// A family F<T, Exec> may have, besides its constructor F(scene, exec):
//   upload(params, exec) or upload(params, initial_state, exec)      before each forward
//   put_model(ModelView&, exec), put_grad(GradView&, exec)           its parts of the views
//   zero_gradients(exec)
//   download_gradients(params, exec) or (params, adj0, exec)         after each backward
//   coupling_pairs(): the (body, body) pairs it writes wrenches for (BodyCoupling's slots)
//   state_fields(fields): the arrays of the state it holds (sim/state_layout.h)
//   unsupported(params): why these values cannot run on what it built from its scene
//     (a family that is present only where its parameters are set), or nothing
//   contacts(m, state, out): the contacts it makes in a state, for live play (host only)
// and phase members taking a StepPass (forward) or an AdjointPass (sim/step_pass.h).
//
// One step, forward (Box2D's solver stages, written down):
//   control               the controls the actuators read at this step (the controller)
//   kinematics            where what others meet is at the step's start (the links)
//   interaction_forces    forces between particles (springs, the corner families)
//   integrate_particles   gather them, add the local forces (ground, colliders, bodies), integrate
//   couple_bodies(first)  wrenches between bodies into coupling slots (joints, contacts, actuators)
//   integrate_bodies      gather the wrenches, integrate
//   integrate_continua    what has a step of its own on its own grid (material points)
// and its adjoint, in this order:
//   adjoint_integrate_continua, kinematics and
//   couple_bodies again (their arrays hold another step's), adjoint_integrate_bodies,
//   adjoint_integrate_particles, gather_particle_body_adjoints,
//   adjoint_interaction_forces, adjoint_couple_bodies(first), adjoint_control,
//   gather_body_adjoints.
// Within a phase the families run in list order. Gradients are summed in that fixed
// order, so the list's order is part of the results' bits: append, do not reorder.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "nudge/live_simulation.h"
#include "nudge/parameters.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/body_coupling.h"
#include "sim/step_pass.h"
#include "sim/state_layout.h"

namespace nudge {

template <class T, Backend Exec, template <class, class> class... Families>
class FamilyList {
public:
  FamilyList(const Scene& scene, const Exec& exec)
      : families_(Families<T, Exec>(scene, exec)...), coupling_(scene.body_count(), coupled_pairs(), exec) {}

  // Every family's state arrays, in list order: the state slot's layout.
  std::vector<StateField> state_fields() const {
    std::vector<StateField> fields;
    each([&](const auto& f) {
      if constexpr (requires { f.state_fields(fields); }) f.state_fields(fields);
    });
    return fields;
  }

  // The first family's reason why `p` cannot run on this rollout, if any.
  std::optional<std::string> unsupported(const ParameterSet& p) const {
    std::optional<std::string> why;
    each([&](const auto& f) {
      if constexpr (requires { f.unsupported(p); })
        if (!why) why = f.unsupported(p);
    });
    return why;
  }

  // Each family's parameters, and the initial state (particles, bodies).
  void upload(const ParameterSet& p, StateView<T> initial, const Exec& exec) {
    each([&](auto& f) {
      if constexpr (requires { f.upload(p, initial, exec); })
        f.upload(p, initial, exec);
      else if constexpr (requires { f.upload(p, exec); })
        f.upload(p, exec);
    });
  }

  void put_model(ModelView<T>& m, const Exec& exec) const {
    each([&](const auto& f) {
      if constexpr (requires { f.put_model(m, exec); }) f.put_model(m, exec);
    });
    m.coupling = coupling_.view(exec);
  }

  void put_grad(GradView<T>& g, const Exec& exec) {
    each([&](auto& f) {
      if constexpr (requires { f.put_grad(g, exec); }) f.put_grad(g, exec);
    });
  }

  void zero_gradients(const Exec& exec) {
    each([&](auto& f) {
      if constexpr (requires { f.zero_gradients(exec); }) f.zero_gradients(exec);
    });
  }

  // adj0: dL/dstate_0. Families that add to another's gradients (joints to the bodies'
  // starting poses) come after it in the list.
  void download_gradients(ParameterSet& p, StateView<const T> adj0, const Exec& exec) const {
    each([&](const auto& f) {
      if constexpr (requires { f.download_gradients(p, adj0, exec); })
        f.download_gradients(p, adj0, exec);
      else if constexpr (requires { f.download_gradients(p, exec); })
        f.download_gradients(p, exec);
    });
  }

  // The one family F of the list, for what only it does (live play holds its controls).
  template <template <class, class> class F>
  F<T, Exec>& family() {
    return std::get<F<T, Exec>>(families_);
  }

  // Live play, on a host rollout only: every contact in state s (nudge/live_simulation.h),
  // family by family, from those that have contacts(m, s, out).
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    each([&](const auto& f) {
      if constexpr (requires { f.contacts(m, s, out); }) f.contacts(m, s, out);
    });
  }

  // The forward phases.
  void control(const StepPass<T, Exec>& s) {
    run(s, [](auto& f, const auto& p) -> decltype(f.control(p)) { f.control(p); });
  }
  void kinematics(const StepPass<T, Exec>& s) {
    run(s, [](auto& f, const auto& p) -> decltype(f.kinematics(p)) { f.kinematics(p); });
  }
  void interaction_forces(const StepPass<T, Exec>& s) {
    run(s, [](auto& f, const auto& p) -> decltype(f.interaction_forces(p)) { f.interaction_forces(p); });
  }
  void integrate_particles(const StepPass<T, Exec>& s) {
    run(s, [](auto& f, const auto& p) -> decltype(f.integrate_particles(p)) { f.integrate_particles(p); });
  }
  void couple_bodies(const StepPass<T, Exec>& s) {
    each_coupling([&](auto& f, int first) { f.couple_bodies(s, first); });
  }
  void integrate_bodies(const StepPass<T, Exec>& s) {
    run(s, [](auto& f, const auto& p) -> decltype(f.integrate_bodies(p)) { f.integrate_bodies(p); });
  }
  void integrate_continua(const StepPass<T, Exec>& s) {
    run(s, [](auto& f, const auto& p) -> decltype(f.integrate_continua(p)) { f.integrate_continua(p); });
  }

  // The adjoint phases.
  void adjoint_integrate_continua(const AdjointPass<T, Exec>& a) {
    run(a,
        [](auto& f, const auto& p) -> decltype(f.adjoint_integrate_continua(p)) { f.adjoint_integrate_continua(p); });
  }
  void adjoint_integrate_bodies(const AdjointPass<T, Exec>& a) {
    run(a, [](auto& f, const auto& p) -> decltype(f.adjoint_integrate_bodies(p)) { f.adjoint_integrate_bodies(p); });
  }
  void adjoint_integrate_particles(const AdjointPass<T, Exec>& a) {
    run(a,
        [](auto& f, const auto& p) -> decltype(f.adjoint_integrate_particles(p)) { f.adjoint_integrate_particles(p); });
  }
  void gather_particle_body_adjoints(const AdjointPass<T, Exec>& a) {
    run(a, [](auto& f, const auto& p) -> decltype(f.gather_particle_body_adjoints(p)) {
      f.gather_particle_body_adjoints(p);
    });
  }
  void adjoint_interaction_forces(const AdjointPass<T, Exec>& a) {
    run(a,
        [](auto& f, const auto& p) -> decltype(f.adjoint_interaction_forces(p)) { f.adjoint_interaction_forces(p); });
  }
  void adjoint_couple_bodies(const AdjointPass<T, Exec>& a) {
    each_coupling([&](auto& f, int first) { f.adjoint_couple_bodies(a, first); });
  }
  void adjoint_control(const AdjointPass<T, Exec>& a) {
    run(a, [](auto& f, const auto& p) -> decltype(f.adjoint_control(p)) { f.adjoint_control(p); });
  }
  void gather_body_adjoints(const AdjointPass<T, Exec>& a) {
    run(a, [](auto& f, const auto& p) -> decltype(f.gather_body_adjoints(p)) { f.gather_body_adjoints(p); });
  }

private:
  using Tuple = std::tuple<Families<T, Exec>...>;
  static constexpr size_t kCount = sizeof...(Families);

  template <class F>
  void each(F&& f) {
    std::apply([&](auto&... family) { (f(family), ...); }, families_);
  }
  template <class F>
  void each(F&& f) const {
    std::apply([&](const auto&... family) { (f(family), ...); }, families_);
  }

  // Calls phase(family, pass) for the families that have it: `phase` is a lambda whose
  // return type names the member, so it drops out of overload resolution where the
  // family has none.
  template <class Pass, class Phase>
  void run(const Pass& pass, Phase phase) {
    each([&](auto& f) {
      if constexpr (std::is_invocable_v<Phase, decltype(f), const Pass&>) phase(f, pass);
    });
  }

  // Calls f(family, its first coupling slot) for the families that couple bodies, in
  // list order, which is the order of coupled_pairs().
  template <class F>
  void each_coupling(F&& f) {
    size_t k = 0;
    each([&](auto& family) {
      if constexpr (requires { family.coupling_pairs(); }) f(family, first_slot_[k]);
      ++k;
    });
  }

  // The two bodies of every interaction between bodies, family after family (the
  // coupling's slots in that order); records each family's first slot.
  std::vector<std::pair<int, int>> coupled_pairs() {
    std::vector<std::pair<int, int>> pairs;
    size_t k = 0;
    each([&](const auto& family) {
      first_slot_[k++] = static_cast<int>(pairs.size());
      if constexpr (requires { family.coupling_pairs(); }) {
        const auto& own = family.coupling_pairs();
        pairs.insert(pairs.end(), own.begin(), own.end());
      }
    });
    return pairs;
  }

  Tuple families_;
  std::array<int, kCount> first_slot_{};
  BodyCoupling<T, Exec> coupling_;  // after families_, whose pairs it holds
};

}  // namespace nudge
