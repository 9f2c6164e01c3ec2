#include "view/contact_draw.h"

#include <cmath>

#include "nudge/bodies.h"

namespace nudge::view {

double contact_arrow_scale(const Scene& scene, const SceneDrawOptions& options) {
  const ParameterSet& p = scene.params;
  double mass = 0;
  for (const double m : p[ParamId::Mass].value) mass += m;
  for (int b = 0; b < scene.body_count(); ++b) {
    const RigidBody& body = scene.bodies[size_t(b)];
    mass += p[ParamId::BodyDensity].value[size_t(b)] * unit_mass_properties(body, body_shape_size(body, p, b)).volume;
  }
  const std::vector<double>& g = p[ParamId::Gravity].value;
  const int elements = scene.particle_count() + scene.body_count();
  const double weight = elements > 0 ? mass / elements * std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) : 0;
  const double length = 0.1 * options.bounds.radius();
  return weight > 0 ? length / weight : length;
}

void add_contacts(render::DrawList& list, const std::vector<Contact>& contacts, double metres_per_newton,
                  float point_radius) {
  if (contacts.empty()) return;
  render::ArrowBatch arrows;
  arrows.width_pixels = 2.5f;
  arrows.scale = static_cast<float>(metres_per_newton);
  for (const Contact& c : contacts) {
    const glm::vec3 at{c.point[0], c.point[1], c.point[2]};
    list.spheres.push_back({at, point_radius, colors::kContactPoint});
    arrows.origins.push_back(at);
    arrows.vectors.push_back({c.force[0], c.force[1], c.force[2]});
    arrows.colors.push_back(colors::kContactForce);
  }
  list.arrows.push_back(std::move(arrows));
}

}  // namespace nudge::view
