// nudge simulate SCENE [--out traj.csv] [--bodies-out bodies.csv] [--points-out points.csv]
// [--joints-out joints.csv]: runs the rollout, reports the loss of each objective term, and
// writes the trajectory of the particles, of the bodies, of the material points and of the
// articulations' joints.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "nudge/atomic_file.h"

namespace nudge {

namespace {

struct SimulateArgs {
  std::string scene, out, bodies_out, points_out, joints_out;
  DeviceOptions device;
};

std::string trajectory_csv(const Trajectory& traj) {
  std::string csv = "step,time,particle,x,y,z,vx,vy,vz\n";
  char row[320];
  for (int t = 0; t <= traj.steps; ++t)
    for (int i = 0; i < traj.particles; ++i) {
      const size_t at = (size_t(t) * traj.particles + i) * 3;
      const int len =
          std::snprintf(row, sizeof row, "%d,%.9g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, t * traj.dt, i,
                        traj.x[at], traj.x[at + 1], traj.x[at + 2], traj.v[at], traj.v[at + 1], traj.v[at + 2]);
      csv.append(row, size_t(len));
    }
  return csv;
}

// Bodies' states: the centre of mass, the orientation quaternion (x, y, z, w), and the
// linear and angular velocities (world frame).
std::string body_trajectory_csv(const Trajectory& traj) {
  std::string csv = "step,time,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n";
  char row[640];
  for (int t = 0; t <= traj.steps; ++t)
    for (int b = 0; b < traj.bodies; ++b) {
      const size_t at = size_t(t) * traj.bodies + b;
      const double *x = &traj.body_x[at * 3], *q = &traj.body_q[at * 4];
      const double *v = &traj.body_v[at * 3], *w = &traj.body_w[at * 3];
      const int len = std::snprintf(
          row, sizeof row,
          "%d,%.9g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
          "%.17g\n",
          t, t * traj.dt, b, x[0], x[1], x[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
      csv.append(row, size_t(len));
    }
  return csv;
}

// Material points' positions (their velocities stay in the rollout).
std::string point_trajectory_csv(const Trajectory& traj) {
  std::string csv = "step,time,point,x,y,z\n";
  char row[320];
  for (int t = 0; t <= traj.steps; ++t)
    for (int q = 0; q < traj.points; ++q) {
      const double* x = &traj.point_x[(size_t(t) * traj.points + q) * 3];
      const int len =
          std::snprintf(row, sizeof row, "%d,%.9g,%d,%.17g,%.17g,%.17g\n", t, t * traj.dt, q, x[0], x[1], x[2]);
      csv.append(row, size_t(len));
    }
  return csv;
}

// A ball's or free joint's rotation (x, y, z, w) as its rotation vector, axis times angle
// (the shorter way round).
std::array<double, 3> rotation_vector(const double* q) {
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double sign = q[3] < 0 ? -1.0 : 1.0, s = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  if (!(s > 0) || !(norm > 0)) return {0, 0, 0};
  const double angle = 2 * std::atan2(s, sign * q[3]);
  return {sign * q[0] / s * angle, sign * q[1] / s * angle, sign * q[2] / s * angle};
}

// Articulations' joints: a row per entry of qd (its index is `joint`), named by its link,
// with its rate and its position: a hinge's angle or a slide's offset, a free joint's
// translation, a ball's or free joint's rotation vector (the quaternion itself is in the
// Python package's joint_q).
std::string joint_trajectory_csv(const Scene& scene, const Trajectory& traj) {
  std::string csv = "step,time,joint,link,q,qd\n";
  const Articulations& a = scene.articulations;
  const std::vector<int> coordinate = articulation_coordinates(a), position = articulation_positions(a);
  char row[320];
  for (int t = 0; t <= traj.steps; ++t)
    for (size_t k = 0; k < coordinate.size(); ++k) {
      const int dofs = joint_velocity_count(a.links[k].joint);
      if (dofs == 0) continue;
      const double* q = &traj.joint_q[size_t(t) * size_t(traj.positions) + size_t(position[k])];
      const double* qd = &traj.joint_qd[size_t(t) * size_t(traj.coordinates) + size_t(coordinate[k])];
      double values[6];
      const int shifts = a.links[k].joint == ArticulationJoint::Free ? 3 : dofs == 1 ? 1 : 0;
      std::copy(q, q + shifts, values);
      if (dofs > 1) {
        const std::array<double, 3> turn = rotation_vector(q + shifts);
        std::copy(turn.begin(), turn.end(), values + shifts);
      }
      for (int c = 0; c < dofs; ++c) {
        const int len = std::snprintf(row, sizeof row, "%d,%.9g,%d,%s,%.17g,%.17g\n", t, t * traj.dt, coordinate[k] + c,
                                      a.links[k].name.c_str(), values[c], qd[c]);
        if (len > 0) csv.append(row, std::min(size_t(len), sizeof row - 1));
      }
    }
  return csv;
}

int write_csv(const std::string& path, const std::string& csv) {
  if (Status written = write_file_atomically(path, csv); !written) {
    print_error(written.error().message);
    return kExitBadInput;
  }
  std::cout << "wrote " << path << "\n";
  return kExitOk;
}

int run_simulate(const SimulateArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  auto sim = create_simulator_or_report(*scene, args.device);
  if (!sim) return kExitBadInput;
  Result<Trajectory> traj = sim->trajectory(scene->params);
  Result<Evaluation> eval = traj ? sim->evaluate(scene->params) : Result<Evaluation>(traj.error());
  if (!eval) {
    print_error(args.scene + ": " + eval.error().message);
    return kExitBadInput;
  }
  std::cout << "simulated " << scene->settings.steps << " steps (" << scene->settings.steps * scene->settings.dt
            << " s) on " << sim->device_name() << "\n";
  std::cout << "loss " << eval->loss << "\n";
  for (size_t i = 0; i < eval->term_loss.size(); ++i)
    std::cout << "  term " << i << " (" << objective_type_name(scene->objectives[i].type) << "): " << eval->term_loss[i]
              << "\n";
  warn_of_unstable_steps(args.scene, *scene, *traj);
  if (!args.out.empty())
    if (int code = write_csv(args.out, trajectory_csv(*traj)); code != kExitOk) return code;
  if (!args.bodies_out.empty())
    if (int code = write_csv(args.bodies_out, body_trajectory_csv(*traj)); code != kExitOk) return code;
  if (!args.points_out.empty())
    if (int code = write_csv(args.points_out, point_trajectory_csv(*traj)); code != kExitOk) return code;
  if (!args.joints_out.empty())
    if (int code = write_csv(args.joints_out, joint_trajectory_csv(*scene, *traj)); code != kExitOk) return code;
  return kExitOk;
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run a scene forward; report its loss; write its trajectory");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--out", args->out, "Trajectory CSV: step,time,particle,x,y,z,vx,vy,vz");
  cmd->add_option("--bodies-out", args->bodies_out,
                  "Body trajectory CSV: step,time,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");
  cmd->add_option("--points-out", args->points_out, "Material points' trajectory CSV: step,time,point,x,y,z");
  cmd->add_option("--joints-out", args->joints_out,
                  "Articulations' joints CSV: step,time,joint,link,q,qd (joint: the index in qd; a ball's rotation as "
                  "its rotation vector)");
  add_device_options(*cmd, args->device);
  cmd->callback([args, &exit_code] { exit_code = run_simulate(*args); });
}

}  // namespace nudge
