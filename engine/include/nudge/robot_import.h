// Robots from their files: MJCF (MuJoCo's XML) and URDF read into articulations
// (nudge/articulations.h), for nudge import, File > Import Robot and Python's
// nudge.import_robot; robot_scene (nudge/scene.h) makes a scene of one.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "nudge/articulations.h"
#include "nudge/colliders.h"
#include "nudge/result.h"

namespace nudge {

// A robot read from an MJCF or URDF file: its links and actuators, the values of its
// links' parameters (one row per link, as nudge/parameters.h's link_* hold them), and
// what the file says of the simulation. robot_scene() (nudge/scene.h's io) makes a scene
// of it.
struct ImportedRobot {
  std::string name;  // MJCF's model, URDF's robot name
  Articulations articulations;
  // Per link: pos (3), mass, com (3), inertia (6: xx, yy, zz, xy, xz, yz about the centre
  // of mass in the link's axes), damping, armature, dry friction (MJCF's frictionloss,
  // URDF's friction), initial q and qd; and a hinge's or slide's spring (stiffness,
  // spring_ref), where the file gives one (MJCF).
  std::vector<double> pos, mass, com, inertia, damping, armature, frictionloss, q, qd, stiffness, spring_ref;
  // Per actuator: its gain and biases (actuator_gain, actuator_bias_q, actuator_bias_qd).
  std::vector<double> gain, bias_q, bias_qd;
  int channels = 0;          // one per actuator, in order
  double timestep = 0.002;   // MJCF's option timestep (MuJoCo's default)
  bool runge_kutta = false;  // MJCF's option integrator="RK4": the scene steps with rk4
  double gravity[3] = {0, 0, -9.81};
  std::vector<ColliderShape> colliders;  // MJCF's worldbody planes (the floor), z up
  std::vector<std::string> ignored;      // what the file had that is not imported, for a note
};

// Reads an MJCF file (MuJoCo's XML). Errors name the file, the line and the element.
Result<ImportedRobot> import_mjcf(const std::filesystem::path& file);
// Reads a URDF file.
Result<ImportedRobot> import_urdf(const std::filesystem::path& file);
// By the file's extension: .urdf is URDF, .xml and .mjcf are MJCF.
Result<ImportedRobot> import_robot(const std::filesystem::path& file);
// Whether import_robot reads a file of this name (its extension, in any case).
bool is_robot_file(const std::filesystem::path& file);

}  // namespace nudge
