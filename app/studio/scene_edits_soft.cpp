// Soft-body generators (scene_edits.h): cloth held by membrane triangles and bending
// edges, and solids of tets (a box, a ball, a mesh read from a file).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nudge/tet_mesh_file.h"
#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

std::optional<Error> check_value(std::string_view action, std::string_view what, double x, bool positive,
                                 std::string_view unit) {
  if (std::isfinite(x) && (positive ? x > 0 : x >= 0)) return std::nullopt;
  return fail(action, "found " + std::string(what) + " " + number_text(x) + "; expected a " + std::string(what) +
                          (positive ? " > 0 (" : " >= 0 (") + std::string(unit) + ")");
}

std::optional<Error> check_membrane(std::string_view action, const MembraneMaterial& m) {
  if (auto e = check_value(action, "particle mass", m.particle_mass, true, "kg")) return e;
  if (auto e = check_value(action, "stiffness", m.stiffness, false, "N/m")) return e;
  if (auto e = check_value(action, "area stiffness", m.area_stiffness, false, "N/m")) return e;
  if (auto e = check_value(action, "damping", m.damping, false, "N s/m")) return e;
  return check_value(action, "bending stiffness", m.bending_stiffness, false, "N m/rad");
}

std::optional<Error> check_soft(std::string_view action, const SoftMaterial& m) {
  if (auto e = check_value(action, "density", m.density, true, "kg/m^3")) return e;
  if (auto e = check_value(action, "Young's modulus", m.young, true, "Pa")) return e;
  if (!(std::isfinite(m.poisson) && m.poisson > -1 && m.poisson < 0.5))
    return fail(action, "found Poisson's ratio " + number_text(m.poisson) + "; expected a ratio in (-1, 0.5)");
  return check_value(action, "damping", m.damping, false, "Pa s");
}

// A generator's vertex count, refused before the mesh is made when it is too large.
std::optional<Error> check_vertices(std::string_view action, long long vertices, const std::string& shape) {
  if (vertices <= kMaxGeneratedParticles) return std::nullopt;
  return fail(action, "found " + shape + " = " + std::to_string(vertices) + " particles; expected at most " +
                          std::to_string(kMaxGeneratedParticles));
}

// Appends the mesh's vertices as particles and its tets, unfinished.
Result<Scene> append_tet_mesh(const Scene& scene, std::string_view action, const TetMesh& mesh,
                              const SoftMaterial& material) {
  if (auto error = check_soft(action, material)) return *error;
  if (mesh.tet_count() == 0) return fail(action, "the mesh has no tets");
  if (auto error = check_vertices(action, mesh.vertex_count(), "the mesh's vertex count")) return *error;
  if (Status valid = validate_tet_mesh(mesh, "the mesh"); !valid) return fail(action, valid.error().message);
  Scene edited = scene;
  const int first = scene.particle_count();
  std::vector<Vec3> positions(mesh.vertices.begin(), mesh.vertices.end());
  append_particles(edited, positions, 1.0, shared_particle_radius(scene));
  const std::vector<double> masses = lumped_masses(mesh, material.density);
  for (size_t k = 0; k < masses.size(); ++k) edited.params[ParamId::Mass].value[size_t(first) + k] = masses[k];
  const int old_tets = scene.tet_count(), tets = mesh.tet_count();
  for (int corner : mesh.tets) edited.tets.push_back(first + corner);
  edited.tet_channel.resize(size_t(old_tets + tets), -1);
  edited.tet_actuation.resize(size_t(old_tets + tets), 0.0);
  append_rows(edited.params, ParamElement::Tet, tets);
  const NeoHookeanModuli k = neohookean_from_young_poisson(material.young, material.poisson);
  for (size_t t = size_t(old_tets); t < size_t(old_tets + tets); ++t) {
    edited.params[ParamId::TetMu].value[t] = k.k_mu;
    edited.params[ParamId::TetLambda].value[t] = k.k_lambda;
    edited.params[ParamId::TetDamping].value[t] = material.damping;
  }
  return edited;
}

Result<Scene> generate_tets(const Scene& scene, std::string_view action, const TetMesh& mesh,
                            const SoftMaterial& material) {
  Result<Scene> appended = append_tet_mesh(scene, action, mesh, material);
  if (!appended) return appended;
  return finish(std::move(*appended), action);
}

}  // namespace

Result<Scene> add_membrane_cloth(const Scene& scene, const Vec3& corner, double size_u, double size_v, int nu, int nv,
                                 const MembraneMaterial& material, bool pin_top_row) {
  constexpr std::string_view action = "add cloth";
  if (auto error = check_membrane(action, material)) return *error;
  // The sheet of particles, as add_cloth makes it; its springs are dropped below (it is
  // the one place that knows the layout and checks the shape).
  Result<Scene> sheet = add_cloth(scene, corner, size_u, size_v, nu, nv, {material.particle_mass, 0, 0}, pin_top_row);
  if (!sheet) return sheet;
  Scene edited = std::move(*sheet);
  IndexMap springs(size_t(edited.spring_count()));
  for (int s = 0; s < edited.spring_count(); ++s) springs[size_t(s)] = s < scene.spring_count() ? s : -1;
  remove_springs(edited, springs);

  const int first = scene.particle_count();
  const auto index = [&](int row, int col) { return first + row * nu + col; };
  std::vector<int> triangles;
  for (int row = 0; row + 1 < nv; ++row)
    for (int col = 0; col + 1 < nu; ++col)
      triangles.insert(triangles.end(), {index(row, col), index(row, col + 1), index(row + 1, col + 1), index(row, col),
                                         index(row + 1, col + 1), index(row + 1, col)});
  const std::vector<int> bending = bending_edges_of_triangles(triangles);
  const size_t old_triangles = size_t(scene.triangle_count()), old_bending = size_t(scene.bending_count());
  edited.triangles.insert(edited.triangles.end(), triangles.begin(), triangles.end());
  edited.bending.insert(edited.bending.end(), bending.begin(), bending.end());
  append_rows(edited.params, ParamElement::Triangle, static_cast<int>(triangles.size() / 3));
  append_rows(edited.params, ParamElement::BendingEdge, static_cast<int>(bending.size() / 4));
  for (size_t t = old_triangles; t < size_t(edited.triangle_count()); ++t) {
    edited.params[ParamId::TriangleStiffness].value[t] = material.stiffness;
    edited.params[ParamId::TriangleAreaStiffness].value[t] = material.area_stiffness;
    edited.params[ParamId::TriangleDamping].value[t] = material.damping;
  }
  for (size_t e = old_bending; e < size_t(edited.bending_count()); ++e)
    edited.params[ParamId::BendingStiffness].value[e] = material.bending_stiffness;
  return finish(std::move(edited), action);
}

Result<Scene> add_tet_mesh(const Scene& scene, const TetMesh& mesh, const SoftMaterial& material) {
  constexpr std::string_view action = "add tet mesh";
  if (auto error = check_input(scene, action)) return *error;
  return generate_tets(scene, action, mesh, material);
}

Result<Scene> add_soft_box(const Scene& scene, const Vec3& corner, const Vec3& size, const std::array<int, 3>& cells,
                           const SoftMaterial& material) {
  constexpr std::string_view action = "add soft box";
  if (auto error = check_input(scene, action)) return *error;
  static constexpr const char* kAxes[] = {"x", "y", "z"};
  long long vertices = 1;
  for (size_t k = 0; k < 3; ++k) {
    if (cells[k] < 1)
      return fail(action, "found " + std::to_string(cells[k]) + " cells along " + kAxes[k] + "; expected at least 1");
    if (!(std::isfinite(size[k]) && size[k] > 0))
      return fail(action,
                  "found size " + std::string(kAxes[k]) + " " + number_text(size[k]) + "; expected a length > 0 (m)");
    vertices *= std::min<long long>(cells[k], kMaxGeneratedParticles) + 1;  // capped: no overflow
  }
  if (auto error = check_vertices(action, vertices,
                                  "(" + std::to_string(cells[0]) + " + 1) x (" + std::to_string(cells[1]) +
                                      " + 1) x (" + std::to_string(cells[2]) + " + 1)"))
    return *error;
  if (!finite(corner)) return fail(action, "found corner " + vec3_text(corner) + "; expected a finite point (m)");
  Result<TetMesh> mesh =
      tet_box(corner, {corner[0] + size[0], corner[1] + size[1], corner[2] + size[2]}, cells[0], cells[1], cells[2]);
  if (!mesh) return fail(action, mesh.error().message);
  return generate_tets(scene, action, *mesh, material);
}

Result<Scene> add_soft_ball(const Scene& scene, const Vec3& centre, double radius, int resolution,
                            const SoftMaterial& material) {
  constexpr std::string_view action = "add soft ball";
  if (auto error = check_input(scene, action)) return *error;
  if (resolution < 1)
    return fail(action, "found resolution " + std::to_string(resolution) + "; expected at least 1 cell across");
  const long long side = std::min<long long>(resolution, kMaxGeneratedParticles) + 1;
  if (auto error = check_vertices(action, side * side * side, "(" + std::to_string(resolution) + " + 1)^3"))
    return *error;
  if (!finite(centre)) return fail(action, "found centre " + vec3_text(centre) + "; expected a finite point (m)");
  if (!(std::isfinite(radius) && radius > 0))
    return fail(action, "found radius " + number_text(radius) + "; expected a length > 0 (m)");
  Result<TetMesh> mesh = tet_sphere(centre, radius, resolution);
  if (!mesh) return fail(action, mesh.error().message);
  return generate_tets(scene, action, *mesh, material);
}

Result<Scene> import_tet_mesh(const Scene& scene, const std::filesystem::path& path, double scale, const Vec3& offset,
                              const SoftMaterial& material) {
  constexpr std::string_view action = "import tet mesh";
  if (auto error = check_input(scene, action)) return *error;
  if (!(std::isfinite(scale) && scale > 0))
    return fail(action, "found scale " + number_text(scale) + "; expected a factor > 0");
  if (!finite(offset)) return fail(action, "found offset " + vec3_text(offset) + "; expected a finite offset (m)");
  Result<TetMesh> mesh = read_tet_mesh(path);
  if (!mesh) return fail(action, mesh.error().message);
  remove_unused_vertices(*mesh);
  for (auto& v : mesh->vertices)
    for (size_t k = 0; k < 3; ++k) v[k] = v[k] * scale + offset[k];
  return generate_tets(scene, action, *mesh, material);
}

namespace {

Result<Scene> delete_corner_elements(const Scene& scene, std::string_view action, std::string_view noun,
                                     const std::vector<int>& removed, int count,
                                     void (*remove)(Scene&, const IndexMap&)) {
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, noun, removed, count)) return *error;
  Scene edited = scene;
  remove(edited, index_map(count, removed));
  return finish(std::move(edited), action);
}

}  // namespace

Result<Scene> delete_triangles(const Scene& scene, const std::vector<int>& triangles) {
  return delete_corner_elements(scene, "delete triangles", "triangle", triangles, scene.triangle_count(),
                                remove_triangles);
}

Result<Scene> delete_bending_edges(const Scene& scene, const std::vector<int>& edges) {
  return delete_corner_elements(scene, "delete bending edges", "bending edge", edges, scene.bending_count(),
                                remove_bending_edges);
}

Result<Scene> delete_tets(const Scene& scene, const std::vector<int>& tets) {
  return delete_corner_elements(scene, "delete tets", "tet", tets, scene.tet_count(), remove_tets);
}

}  // namespace nudge::studio::edits
