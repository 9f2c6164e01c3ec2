// nudge validate SCENE: loads and checks a scene, and summarises it.
#include <iostream>
#include <string>
#include <memory>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"

namespace nudge {

namespace {

// "L links (Q joint coordinates, A actuators[, meeting each other][, meeting the material
// points]), " where the scene has articulations. Material points meet the links' shapes
// that collide, on a 3D grid.
std::string articulation_summary(const Scene& scene) {
  const Articulations& a = scene.articulations;
  if (a.empty()) return "";
  bool collides = false;
  for (const ArticulationLink& link : a.links)
    for (const LinkShape& shape : link.shapes) collides = collides || shape.collides;
  const bool points = collides && scene.material_points.count() > 0 && scene.material_points.dims == 3;
  return std::to_string(a.link_count()) + " links (" + std::to_string(articulation_coordinate_count(a)) +
         " joint coordinates, " + std::to_string(a.actuators.size()) + " actuators" +
         (a.self_contact ? ", meeting each other" : "") + (points ? ", meeting the material points" : "") + "), ";
}

// How the scene steps, as "semi-implicit Euler".
const char* integrator_summary(Integrator integrator) {
  switch (integrator) {
    case Integrator::ImplicitEuler: return "implicit Euler";
    case Integrator::RungeKutta4: return "fourth-order Runge-Kutta";
    default: return "semi-implicit Euler";
  }
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("validate", "Check a scene file; exit 2 with the error if it is invalid");
  cmd->add_option("scene", *path, "Scene file (JSON)")->required();
  cmd->callback([path, &exit_code] {
    std::optional<Scene> scene = load_scene_or_report(*path);
    if (!scene) {
      exit_code = kExitBadInput;
      return;
    }
    std::cout << *path << ": ok: " << scene->particle_count() << " particles, " << scene->spring_count() << " springs, "
              << scene->triangle_count() << " triangles, " << scene->bending_count() << " bending edges, "
              << scene->tet_count() << " tets, " << scene->material_points.count() << " material points, "
              << scene->body_count() << " bodies, " << scene->joint_count() << " joints, " << scene->colliders.size()
              << " colliders, " << articulation_summary(*scene) << scene->settings.steps << " steps of "
              << scene->settings.dt << " s (" << integrator_summary(scene->settings.integrator) << "), "
              << scene->channels << " control channels, " << scene->actuator_count() << " actuators, "
              << scene->objectives.size() << " objective terms\n";
    std::cout << "optimised parameters:";
    int optimised = 0;
    for (const Parameter& p : scene->params.items)
      if (p.optimize) {
        int entries = 0;
        for (int k = 0; k < p.size(); ++k) entries += p.optimized_entry(k);
        std::cout << " " << param_name(p.id) << " (" << entries;
        if (!p.optimize_rows.empty())
          std::cout << " of " << p.size() << ", rows " << p.optimize_rows.size() << " of " << p.rows;
        std::cout << ")";
        ++optimised;
      }
    std::cout << (optimised ? "\n" : " none\n");
  });
}

}  // namespace nudge
