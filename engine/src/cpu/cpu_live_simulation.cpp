// Live play: the rollout's step, one at a time, on the CPU in float64, with a mouse's
// pull and channels held by hand (nudge/live_simulation.h).
#include "nudge/live_simulation.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "cpu/cpu_exec.h"
#include "families/bodies/body_kernels.h"
#include "families/bodies/body_state_io.h"
#include "sim/rollout.h"

namespace nudge {

namespace {

using LiveRollout = Rollout<double, CpuExec>;

class CpuLiveSimulation final : public LiveSimulation {
public:
  explicit CpuLiveSimulation(const Scene& scene)
      : steps_(scene.settings.steps), dt_(scene.settings.dt), particles_(scene.particle_count()),
        bodies_(scene.body_count()), points_(scene.material_points.count()), channels_(scene.channels),
        rollout_(scene, CpuExec{std::make_shared<ThreadPool>(1)}, LiveRollout::Live{}),
        held_(size_t(std::max(scene.channels, 0))) {}

  Status upload(const ParameterSet& params) {
    if (std::optional<std::string> why = rollout_.live_upload(params)) return Error{*why};
    params_ = params;
    state_ = rollout_.live_read();
    return Ok{};
  }

  Status start_from(const Trajectory& traj, int frame) override {
    if (traj.particles != particles_ || traj.bodies != bodies_)
      return Error{"live play: the motion has " + std::to_string(traj.particles) + " particles and " +
                   std::to_string(traj.bodies) + " bodies, the scene " + std::to_string(particles_) + " and " +
                   std::to_string(bodies_)};
    // A trajectory keeps the material points' positions only: their velocities and
    // deformations at a later frame are not there to start from.
    if (points_ > 0 && frame > 0) return Error{"live play: a scene with material points starts from its first frame"};
    if (frame < 0 || frame > traj.steps)
      return Error{"live play: frame " + std::to_string(frame) + " is outside the motion's 0.." +
                   std::to_string(traj.steps)};
    const size_t frames = size_t(traj.steps) + 1, nb = size_t(bodies_);
    const bool sized = traj.x.size() == frames * 3 * size_t(particles_) && traj.v.size() == traj.x.size() &&
                       traj.body_x.size() == frames * 3 * nb && traj.body_q.size() == frames * 4 * nb &&
                       traj.body_v.size() == frames * 3 * nb && traj.body_w.size() == frames * 3 * nb &&
                       traj.joint_q.size() == frames * size_t(traj.positions) &&
                       traj.joint_qd.size() == frames * size_t(traj.coordinates);
    if (!sized) return Error{"live play: the motion's arrays do not match its sizes (body velocities missing?)"};
    if (!rollout_.live_joints_match(traj))
      return Error{"live play: the motion has " + std::to_string(traj.positions) + " joint positions and " +
                   std::to_string(traj.coordinates) + " joint rates, the scene's articulations others"};
    if (points_ > 0) (void)rollout_.live_upload(params_);  // the points' initial state again
    rollout_.live_write(traj, frame);
    step_ = frame;
    state_ = rollout_.live_read();
    return Ok{};
  }

  Status step() override {
    // Past the scene's last step, the per-step inputs hold their last row.
    const int row = std::min(step_, std::max(steps_ - 1, 0));
    if (std::optional<Error> error = rollout_.live_step(row, step_, held_)) return *error;
    if (pull_) apply_pull(*pull_);
    rollout_.live_accept();
    ++step_;
    stale_ = true;
    return Ok{};
  }

  int step_index() const override { return step_; }
  double time() const override { return step_ * dt_; }

  Status set_pull(std::optional<Pull> pull) override {
    if (pull) {
      const int count = pull->kind == Pull::Kind::Particle ? particles_ : bodies_;
      if (pull->index < 0 || pull->index >= count)
        return Error{"live play: there is no " +
                     std::string(pull->kind == Pull::Kind::Particle ? "particle " : "body ") +
                     std::to_string(pull->index) + " to pull"};
      if (!(pull->frequency > 0) || !std::isfinite(pull->frequency))
        return Error{"live play: a pull's frequency must be positive"};
    }
    pull_ = pull;
    return Ok{};
  }

  Status set_control(int channel, std::optional<double> value) override {
    if (channel < 0 || channel >= channels_)
      return Error{"live play: there is no control channel " + std::to_string(channel) + " (the scene has " +
                   std::to_string(channels_) + ")"};
    if (value && !std::isfinite(*value)) return Error{"live play: a control value must be finite"};
    held_[size_t(channel)] = value;
    return Ok{};
  }
  int channels() const override { return channels_; }

  const Trajectory& state() const override {
    if (stale_) {
      state_ = rollout_.live_read();
      stale_ = false;
    }
    return state_;
  }

  std::vector<Contact> contacts() const override { return rollout_.live_contacts(); }

private:
  // The pull's spring as a kick to the velocities the step left in slot 1: the force the
  // step would have added, applied after it.
  void apply_pull(const Pull& pull) {
    const ModelView<double> m = rollout_.live_model();
    const StateView<double> next = rollout_.live_next();
    // Critically damped at the pull's frequency, held below a quarter of the step's rate.
    const double omega = std::min(2 * std::numbers::pi * pull.frequency, 0.25 / dt_);
    const double k = omega * omega, c = 2 * omega;
    const Vec3<double> target{pull.target[0], pull.target[1], pull.target[2]};
    if (pull.kind == Pull::Kind::Particle) {
      const int i = pull.index, n = particles_;
      const Vec3<double> x = load3(next.x, i, n), v = load3(next.v, i, n);
      const Vec3<double> accel = k * (target - x) - c * v;
      store3(next.v, i, n, v + (dt_ * m.particles.free[i]) * accel);
      return;
    }
    const int b = pull.index, nb = bodies_;
    BodyState<double> s = load_body(StateView<const double>(next), b, nb);
    const Vec3<double> r = rotate(s.q, Vec3<double>{pull.offset[0], pull.offset[1], pull.offset[2]});
    const Mat33<double> inv_inertia = load_matrix(m.bodies.inv_inertia, b, nb);
    // The mass the grabbed point feels at most (1/m_eff <= 1/M + |r|^2 tr I^-1), so that a
    // point far from the centre does not spin a light body past the spring's stability.
    const double trace = inv_inertia.m[0] + inv_inertia.m[4] + inv_inertia.m[8];
    const double mass = 1 / (1 / m.bodies.mass[b] + dot(r, r) * trace);
    const Vec3<double> force = mass * (k * (target - (s.x + r)) - c * (s.v + cross(s.w, r)));
    const Mat33<double> rot = to_matrix(s.q);
    s.v += (dt_ / m.bodies.mass[b]) * force;
    s.w += dt_ * (rot * (inv_inertia * mul_transpose(rot, cross(r, force))));
    store_body(next, b, nb, s);
  }

  int steps_;
  double dt_;
  int particles_, bodies_, points_, channels_;
  mutable LiveRollout rollout_;  // reading a state downloads it into the rollout's buffer
  std::vector<std::optional<double>> held_;
  std::optional<Pull> pull_;
  ParameterSet params_;  // as uploaded: the material points' initial state comes from them
  int step_ = 0;
  mutable Trajectory state_;
  mutable bool stale_ = false;
};

}  // namespace

Result<std::unique_ptr<LiveSimulation>> LiveSimulation::create(const Scene& scene, const ParameterSet* params) {
  auto live = std::make_unique<CpuLiveSimulation>(scene);
  if (Status uploaded = live->upload(params ? *params : scene.params); !uploaded) return uploaded.error();
  return std::unique_ptr<LiveSimulation>(std::move(live));
}

}  // namespace nudge
