// A scene run one step at a time, for interactive play (the studio's Live mode, what
// MuJoCo's simulate does): the user pulls an element with the mouse, sets control
// channels by hand, and sees where things touch and how hard.
//
// It runs the rollout's own step (the same families, kernels and order, on the CPU in
// float64), so with nothing pulled and no channel set, step k's state is the rollout's
// state k to the last bit. Past the scene's last step it goes on: every per-step input
// (controls, joint motor targets) holds its last row, while a controller's clock runs on.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

// Where two things touch in one state, and the force of the contact.
struct Contact {
  enum class Kind {
    ParticleGround,    // a: particle; b: -1
    ParticleCollider,  // a: particle; b: collider
    BodyCollider,      // a: body; b: collider
    BodyBody,          // a: the body whose contact point it is; b: the body whose shape it meets
    ParticleBody,      // a: particle; b: body
    ParticleLink,      // a: particle; b: an articulation's link
    LinkCollider,      // a: link; b: collider
    BodyLink,          // a: body; b: link (the force on the body)
    LinkLink,          // a: the link whose contact point it is; b: the link whose shape it meets
  };
  Kind kind = Kind::ParticleGround;
  int a = -1, b = -1;
  std::array<double, 3> point{};  // world, m: where the force acts
  std::array<double, 3> force{};  // world, N: on a (b feels the opposite); zero where the ground projects
  // m: how far a is inside b; negative within the reach of a smooth contact law, which
  // pushes before things touch (reported up to five of its switch widths away)
  double depth = 0;
};

// A spring from a point of an element to a point in the world, as a mouse drag pulls.
// Its force is m (k (target - p) - c v_p) with k = (2 pi f)^2, c = 2 (2 pi f) (critically
// damped at frequency f for the element's mass m), so light and heavy things follow the
// cursor alike. On a body it acts at the grabbed point, so it also turns the body.
struct Pull {
  enum class Kind { Particle, Body };
  Kind kind = Kind::Particle;
  int index = -1;
  std::array<double, 3> offset{};  // a body's grabbed point in the body's frame (m); unused for particles
  std::array<double, 3> target{};  // world, m
  double frequency = 2;            // Hz; held below 1 / (4 dt) for a stable explicit spring
};

class LiveSimulation {
public:
  // The scene with these parameter values (the scene's own when `params` is null), at its
  // initial state. An Error when the parameters do not fit the scene.
  static Result<std::unique_ptr<LiveSimulation>> create(const Scene& scene, const ParameterSet* params = nullptr);
  virtual ~LiveSimulation() = default;

  // Continues from state `frame` of `traj` (a trajectory of this scene), at step `frame`.
  // An Error when the trajectory's sizes are not this scene's or the frame is out of range.
  virtual Status start_from(const Trajectory& traj, int frame) = 0;

  // One step. An Error (the state kept as it was) when the step produces NaN or Inf.
  virtual Status step() = 0;

  virtual int step_index() const = 0;  // steps taken from the scene's start
  virtual double time() const = 0;     // step_index() dt, s

  // The spring of a mouse drag, or none. An out-of-range index is an Error.
  virtual Status set_pull(std::optional<Pull> pull) = 0;
  // Channel c carries `value` at every step from now on, or (none) what the scene gives it.
  virtual Status set_control(int channel, std::optional<double> value) = 0;
  virtual int channels() const = 0;

  // The current state, as a trajectory of one frame (steps 0).
  virtual const Trajectory& state() const = 0;
  // Every contact of the current state (touching, or within a smooth law's reach), family
  // by family: the ground's, the colliders', the bodies' against colliders and each other,
  // the particles' against bodies.
  virtual std::vector<Contact> contacts() const = 0;
};

}  // namespace nudge
