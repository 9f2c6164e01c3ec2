#include "view/element_colors.h"

#include <algorithm>
#include <cmath>

#include "nudge/parameter_facts.h"
#include "view/element_stress.h"

namespace nudge::view {

namespace {

bool per_element(ParamElement e) {
  return e == ParamElement::Triangle || e == ParamElement::BendingEdge || e == ParamElement::Tet ||
         e == ParamElement::MaterialPoint;
}

// Each material point's speed at the step: its move from the step before over dt (its
// initial velocity at the start, or without a motion).
std::vector<double> point_speeds(const Scene& scene, const Trajectory* traj, int step) {
  const int n = scene.material_points.count();
  std::vector<double> speed(size_t(n), 0.0);
  const bool moving = traj && traj->points == n && traj->steps > 0 && traj->dt > 0;
  const int at = moving ? std::clamp(step, 0, traj->steps) : 0;
  for (int q = 0; q < n; ++q) {
    double s2 = 0;
    for (size_t k = 0; k < 3; ++k) {
      const double d = at > 0 ? (traj->point_x[(size_t(at) * size_t(n) + size_t(q)) * 3 + k] -
                                 traj->point_x[(size_t(at - 1) * size_t(n) + size_t(q)) * 3 + k]) /
                                    traj->dt
                              : scene.params[ParamId::PointVelocity].value[3 * size_t(q) + k];
      s2 += d * d;
    }
    speed[size_t(q)] = std::sqrt(s2);
  }
  return speed;
}

// The material points' spheres are the list's last (draw_material_points is the last
// layer): recoloured when they are there.
bool color_points(render::DrawList& list, const Scene& scene, const SceneDrawOptions& options,
                  const std::vector<render::Rgba>& per_point) {
  const size_t n = size_t(scene.material_points.count());
  if (!options.particles || n == 0 || list.spheres.size() < n || per_point.size() != n) return false;
  const size_t first = list.spheres.size() - n;
  for (size_t q = 0; q < n; ++q) list.spheres[first + q].color = per_point[q];
  return true;
}

// Smooth normals of an indexed mesh: each vertex's the sum of its faces' area-weighted normals.
std::vector<glm::vec3> smooth_normals(const render::Mesh& mesh) {
  std::vector<glm::vec3> normals(mesh.positions.size(), glm::vec3(0));
  for (size_t f = 0; f + 2 < mesh.indices.size(); f += 3) {
    const std::uint32_t a = mesh.indices[f], b = mesh.indices[f + 1], c = mesh.indices[f + 2];
    const glm::vec3 n = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
    normals[a] += n, normals[b] += n, normals[c] += n;
  }
  for (glm::vec3& n : normals) {
    const float l = glm::length(n);
    n = l > 0 && std::isfinite(l) ? n / l : glm::vec3(0, 1, 0);
  }
  return normals;
}

// The scale of stresses: [0, largest] (1 when all are 0), or nothing when one is not finite.
float stress_max(const std::vector<double>& stress) {
  double largest = 0;
  for (double s : stress) {
    if (!std::isfinite(s)) return 0;  // std::max would pass over a NaN
    largest = std::max(largest, s);
  }
  return largest > 0 ? float(largest) : 1.0f;
}

// values (one per element) as colours, on `map` over [lo, hi].
std::vector<render::Rgba> colors_of(const std::vector<double>& values, render::ColorMap map, float lo, float hi) {
  std::vector<render::Rgba> colors;
  colors.reserve(values.size());
  for (double v : values) colors.push_back(render::map_value(map, float(v), lo, hi));
  return colors;
}

// The cloth's mesh coloured per triangle.
void color_cloth(render::DrawList& list, int place, const std::vector<render::Rgba>& per_triangle) {
  if (place < 0 || size_t(place) >= list.meshes.size()) return;
  list.meshes[size_t(place)] = mesh_with_face_colors(list.meshes[size_t(place)], per_triangle);
}

// The soft bodies' mesh coloured by the tet of each surface face.
void color_tets(render::DrawList& list, int place, const TetSurface& surface,
                const std::vector<render::Rgba>& per_tet) {
  if (place < 0 || size_t(place) >= list.meshes.size()) return;
  std::vector<render::Rgba> per_face;
  per_face.reserve(surface.face_tet.size());
  for (int t : surface.face_tet) per_face.push_back(per_tet[size_t(t)]);
  list.meshes[size_t(place)] = mesh_with_face_colors(list.meshes[size_t(place)], per_face);
}

}  // namespace

const std::vector<ElementColoring>& element_colorings() {
  static const std::vector<ElementColoring> colorings = [] {
    std::vector<ElementColoring> list{
        {ElementColoring::Kind::None}, {ElementColoring::Kind::Stress}, {ElementColoring::Kind::Speed}};
    for (int i = 0; i < kParamCount; ++i) {
      const ParamFacts& facts = param_facts(ParamId(i));
      if (per_element(facts.element) && facts.cols == 1) list.push_back({ElementColoring::Kind::Gradient, ParamId(i)});
    }
    return list;
  }();
  return colorings;
}

std::string element_coloring_label(ElementColoring coloring) {
  switch (coloring.kind) {
    case ElementColoring::Kind::None: return "None";
    case ElementColoring::Kind::Stress: return "Stress (energy density)";
    case ElementColoring::Kind::Speed: return "Speed (material points)";
    case ElementColoring::Kind::Gradient: break;
  }
  std::string words(param_facts(coloring.param).name);
  std::replace(words.begin(), words.end(), '_', ' ');
  return "dL/d " + words;
}

bool element_coloring_applies(ElementColoring coloring, const Scene& scene) {
  switch (coloring.kind) {
    case ElementColoring::Kind::None: return true;
    case ElementColoring::Kind::Stress: return scene.triangle_count() > 0 || scene.tet_count() > 0;
    case ElementColoring::Kind::Speed: return scene.material_points.enabled();
    case ElementColoring::Kind::Gradient: break;
  }
  switch (param_facts(coloring.param).element) {
    case ParamElement::Triangle: return scene.triangle_count() > 0;
    case ParamElement::BendingEdge: return scene.bending_count() > 0;
    case ParamElement::Tet: return scene.tet_count() > 0;
    case ParamElement::MaterialPoint: return scene.material_points.enabled();
    default: return false;
  }
}

render::Mesh mesh_with_face_colors(const render::Mesh& shared, const std::vector<render::Rgba>& face_colors) {
  const std::vector<glm::vec3> normals =
      shared.normals.size() == shared.positions.size() ? shared.normals : smooth_normals(shared);
  render::Mesh mesh;
  const size_t faces = shared.indices.size() / 3;
  mesh.positions.reserve(3 * faces);
  mesh.normals.reserve(3 * faces);
  mesh.colors.reserve(3 * faces);
  mesh.indices.reserve(3 * faces);
  for (size_t f = 0; f < faces; ++f) {
    const render::Rgba c = f < face_colors.size() ? face_colors[f] : render::Rgba{0.7f, 0.7f, 0.7f, 1};
    for (size_t k = 0; k < 3; ++k) {
      const std::uint32_t v = shared.indices[3 * f + k];
      mesh.indices.push_back(static_cast<std::uint32_t>(mesh.positions.size()));
      mesh.positions.push_back(shared.positions[v]);
      mesh.normals.push_back(normals[v]);
      mesh.colors.push_back(c);
    }
  }
  return mesh;
}

float gradient_half_range(const std::vector<double>& grad) {
  double largest = 0;
  for (double g : grad) {
    if (!std::isfinite(g)) return 0;  // std::max would pass over a NaN
    largest = std::max(largest, std::fabs(g));
  }
  return largest > 0 ? float(largest) : 1.0f;
}

void add_element_colors(render::DrawList& list, ElementColoring coloring, const Scene& scene, const Trajectory* traj,
                        int step, const SceneDrawOptions& options, const Scene* gradients) {
  if (coloring.kind == ElementColoring::Kind::None) return;
  const SoftMeshPlaces places = soft_mesh_places(scene, options);
  TetSurface made;
  const TetSurface* surface = options.tet_surface.get();
  if (places.tets >= 0 && (!surface || !surface->matches(scene))) surface = &(made = tet_surface(scene));

  if (coloring.kind == ElementColoring::Kind::Stress) {
    using render::ColorMap;
    if (places.cloth >= 0) {
      const std::vector<double> stress = triangle_stress(scene, traj, step);
      if (const float top = stress_max(stress); top > 0) {
        color_cloth(list, places.cloth, colors_of(stress, ColorMap::Sequential, 0, top));
        list.legends.push_back({ColorMap::Sequential, 0, top, "cloth strain energy (J/m^2)"});
      }
    }
    if (places.tets >= 0) {
      const std::vector<double> stress = tet_stress(scene, traj, step);
      if (const float top = stress_max(stress); top > 0) {
        color_tets(list, places.tets, *surface, colors_of(stress, ColorMap::Sequential, 0, top));
        list.legends.push_back({ColorMap::Sequential, 0, top, "soft strain energy (Pa)"});
      }
    }
    return;
  }
  if (coloring.kind == ElementColoring::Kind::Speed) {
    const std::vector<double> speed = point_speeds(scene, traj, step);
    if (const float top = stress_max(speed); top > 0)
      if (color_points(list, scene, options, colors_of(speed, render::ColorMap::Sequential, 0, top)))
        list.legends.push_back({render::ColorMap::Sequential, 0, top, "material point speed (m/s)"});
    return;
  }

  // A gradient: the evaluated scene's, when it has a row per element.
  if (!gradients) return;
  const ParamElement element = param_facts(coloring.param).element;
  const std::vector<double>& grad = gradients->params[coloring.param].grad;
  const size_t rows = element == ParamElement::Triangle        ? size_t(scene.triangle_count())
                      : element == ParamElement::BendingEdge   ? size_t(scene.bending_count())
                      : element == ParamElement::Tet           ? size_t(scene.tet_count())
                      : element == ParamElement::MaterialPoint ? size_t(scene.material_points.count())
                                                               : 0;
  if (rows == 0 || grad.size() != rows) return;
  const float range = gradient_half_range(grad);
  if (!(range > 0)) return;
  const std::vector<render::Rgba> colors = colors_of(grad, render::ColorMap::Diverging, -range, range);
  switch (element) {
    case ParamElement::Triangle:
      if (places.cloth < 0) return;
      color_cloth(list, places.cloth, colors);
      break;
    case ParamElement::Tet:
      if (places.tets < 0) return;
      color_tets(list, places.tets, *surface, colors);
      break;
    case ParamElement::MaterialPoint:
      if (!color_points(list, scene, options, colors)) return;
      break;
    case ParamElement::BendingEdge: {
      // The edge v0-v1 the two triangles share (Scene::bending's last two indices).
      render::LineBatch edges;
      edges.width_pixels = 4;
      for (size_t e = 0; e < rows; ++e) {
        edges.points.push_back(particle_position(scene, traj, step, scene.bending[4 * e + 2]));
        edges.points.push_back(particle_position(scene, traj, step, scene.bending[4 * e + 3]));
        edges.colors.insert(edges.colors.end(), {colors[e], colors[e]});
      }
      list.lines.push_back(std::move(edges));
      break;
    }
    default: return;
  }
  list.legends.push_back(
      {render::ColorMap::Diverging, -range, range, std::string(param_name(coloring.param)) + " gradient"});
}

}  // namespace nudge::view
