// The soft bodies' drawing: the tets' surface as a lit mesh, per-element stress from the
// deformation gradient, and the cloth and tets coloured by stress or by a gradient.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "nudge/tet_mesh.h"
#include "view/element_colors.h"
#include "view/element_stress.h"
#include "view/scene_draw.h"
#include "view/tet_surface.h"

using namespace nudge;

namespace {

using V = Vec3<double>;

const std::array<V, 4> kRestTet{V{0, 0, 0}, V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}};
const std::array<V, 3> kRestTriangle{V{0, 0, 0}, V{0.2, 0, 0}, V{0, 0.1, 0.05}};

template <size_t N>
std::array<V, N> mapped(const std::array<V, N>& points, double scale, bool turn) {
  std::array<V, N> out;
  for (size_t k = 0; k < N; ++k) {
    const V p = points[k] * scale;
    out[k] = turn ? V{-p.y + 3, p.x - 1, p.z + 2} : p;  // a quarter turn about z, and a shift
  }
  return out;
}

// A soft box of 2 x 1 x 1 cells (10 tets), its particles the mesh's vertices.
Scene soft_box() {
  Result<TetMesh> mesh = tet_box({0, 0, 0}, {0.2, 0.1, 0.1}, 2, 1, 1);
  REQUIRE(mesh.ok());
  Scene scene;
  scene.settings.steps = 3;
  for (const auto& v : mesh->vertices)
    scene.params[ParamId::InitialPosition].value.insert(scene.params[ParamId::InitialPosition].value.end(), v.begin(),
                                                        v.end());
  scene.pinned.assign(mesh->vertices.size(), 0);
  scene.tets = mesh->tets;
  scene.tet_channel.assign(size_t(mesh->tet_count()), -1);
  scene.tet_actuation.assign(size_t(mesh->tet_count()), 0.0);
  shape_parameters(scene);
  REQUIRE(check_scene(scene).ok());
  return scene;
}

// A trajectory whose every step is the initial positions stretched along x by `stretch`.
Trajectory stretched(const Scene& scene, double stretch) {
  Trajectory traj;
  traj.steps = scene.settings.steps;
  traj.particles = scene.particle_count();
  const std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
  for (int s = 0; s <= traj.steps; ++s)
    for (size_t k = 0; k < x0.size(); ++k) traj.x.push_back(k % 3 == 0 ? stretch * x0[k] : x0[k]);
  return traj;
}

}  // namespace

TEST_CASE("element stress: zero at rest and under rigid motion, the energy density when scaled") {
  const double k_mu = 1e4, k_lambda = 3e4;
  CHECK(view::tet_energy_density(kRestTet, kRestTet, k_mu, k_lambda) == doctest::Approx(0).epsilon(1e-12));
  CHECK(view::tet_energy_density(kRestTet, mapped(kRestTet, 1, true), k_mu, k_lambda) ==
        doctest::Approx(0).scale(1e4).epsilon(1e-12));
  // F = s I: Ic = 3 s^2, J = s^3.
  const double s = 1.1, Ic = 3 * s * s, J = s * s * s;
  const double want = 0.5 * k_mu * (Ic - 3) - 0.5 * k_mu * std::log((Ic + 1) / 4) + 0.5 * k_lambda * (J - 1) * (J - 1) -
                      0.75 * k_mu * (J - 1);
  CHECK(view::tet_energy_density(kRestTet, mapped(kRestTet, s, true), k_mu, k_lambda) == doctest::Approx(want));
  CHECK(want > 0);

  const double ke = 400, ka = 900;
  CHECK(view::triangle_energy_density(kRestTriangle, mapped(kRestTriangle, 1, true), ke, ka) ==
        doctest::Approx(0).scale(1e3).epsilon(1e-12));
  // Scaled by s in its plane: |F|^2 = 2 s^2, J = s^2, so ke/2 (2 s^2 - 2 s^2) + ka/2 (s^2 - 1)^2.
  CHECK(view::triangle_energy_density(kRestTriangle, mapped(kRestTriangle, s, false), ke, ka) ==
        doctest::Approx(0.5 * ka * (s * s - 1) * (s * s - 1)));
  // Sheared, at the same area: only ke's part.
  std::array<V, 3> sheared = kRestTriangle;
  sheared[2] = sheared[2] + V{0.1, 0, 0};
  const double shear = view::triangle_energy_density(kRestTriangle, sheared, ke, ka);
  CHECK(shear > 0);
  CHECK(view::triangle_energy_density(kRestTriangle, sheared, 0, ka) == doctest::Approx(0).scale(1));
  // A flat rest shape has none.
  const std::array<V, 4> flat{V{0, 0, 0}, V{1, 0, 0}, V{2, 0, 0}, V{0, 1, 0}};
  CHECK(view::tet_energy_density(flat, kRestTet, k_mu, k_lambda) == 0);
}

TEST_CASE("element stress: per tet at a frame of the motion, zero without one") {
  const Scene scene = soft_box();
  CHECK(view::tet_stress(scene, nullptr, 0) == std::vector<double>(10, 0.0));
  const Trajectory traj = stretched(scene, 1.2);
  const std::vector<double> stress = view::tet_stress(scene, &traj, 2);
  REQUIRE(stress.size() == 10);
  // A uniform stretch strains every tet alike.
  for (double s : stress) CHECK(s == doctest::Approx(stress[0]));
  CHECK(stress[0] > 0);
}

TEST_CASE("tet surface: the boundary faces of the scene's tets, each with the tet it bounds") {
  const Scene scene = soft_box();
  const view::TetSurface surface = view::tet_surface(scene);
  CHECK(surface.matches(scene));
  // A box of 2 x 1 x 1 cells has 10 square faces, two triangles each.
  REQUIRE(surface.face_count() == 20);
  CHECK(surface.indices.size() == 60);
  for (int f = 0; f < surface.face_count(); ++f) {
    const int t = surface.face_tet[size_t(f)];
    REQUIRE(t >= 0);
    REQUIRE(t < scene.tet_count());
    for (int k = 0; k < 3; ++k) {  // the face's corners are its tet's
      const int corner = int(surface.indices[size_t(3 * f + k)]);
      const int* tet = &scene.tets[4 * size_t(t)];
      CHECK(std::find(tet, tet + 4, corner) != tet + 4);
    }
  }
  Scene edited = scene;
  edited.tets.resize(4 * 9);
  CHECK(!surface.matches(edited));
}

TEST_CASE("scene draw: tets are one lit mesh of their surface after the cloth, only when shown") {
  const Scene scene = soft_box();
  view::SceneDrawOptions options = view::scene_draw_options(scene, nullptr, 1.5f);
  REQUIRE(options.tet_surface);
  render::DrawList list = view::scene_draw_list(scene, nullptr, 0, options);
  REQUIRE(list.meshes.size() == 1);
  CHECK(view::soft_mesh_places(scene, options).tets == 0);
  CHECK(view::soft_mesh_places(scene, options).cloth == -1);
  const render::Mesh& soft = list.meshes[0];
  CHECK(soft.indices == options.tet_surface->indices);
  CHECK(soft.positions.size() == size_t(scene.particle_count()));
  CHECK(soft.colors.size() == 1);
  // A stale surface (the scene was edited since) is not used: the list makes its own.
  options.tet_surface = std::make_shared<const view::TetSurface>();
  CHECK(view::scene_draw_list(scene, nullptr, 0, options).meshes[0].indices == soft.indices);
  // Its particles small, so the surface shows.
  CHECK(list.spheres[0].radius < options.particle_radius);
  options.tets = false;
  CHECK(view::scene_draw_list(scene, nullptr, 0, options).meshes.empty());
  CHECK(view::soft_mesh_places(scene, options).tets == -1);
}

TEST_CASE("element colours: a face per element's colour, three vertices of its own, smooth normals kept") {
  render::Mesh shared;
  shared.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  shared.indices = {0, 1, 2, 0, 2, 3};
  shared.colors = {{0.5f, 0.5f, 0.5f, 1}};
  const render::Rgba red{1, 0, 0, 1}, blue{0, 0, 1, 1};
  const render::Mesh mesh = view::mesh_with_face_colors(shared, {red, blue});
  REQUIRE(mesh.positions.size() == 6);
  CHECK(mesh.indices == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});
  CHECK(mesh.positions[4] == glm::vec3(1, 1, 0));
  CHECK(mesh.colors[2].r == 1.0f);
  CHECK(mesh.colors[3].b == 1.0f);
  REQUIRE(mesh.normals.size() == 6);
  CHECK(mesh.normals[0] == glm::vec3(0, 0, 1));
  render::DrawList list;
  list.meshes = {mesh};
  CHECK(render::validate(list).ok());

  CHECK(view::gradient_half_range({0.5, -2, 1}) == 2.0f);
  CHECK(view::gradient_half_range({0, 0}) == 1.0f);
  CHECK(view::gradient_half_range({1, NAN}) == 0.0f);
}

TEST_CASE("element colours: the choices, and which a scene offers") {
  const std::vector<view::ElementColoring>& all = view::element_colorings();
  REQUIRE(all.size() >= 2);
  CHECK(all[0].kind == view::ElementColoring::Kind::None);
  CHECK(all[1].kind == view::ElementColoring::Kind::Stress);
  const view::ElementColoring mu{view::ElementColoring::Kind::Gradient, ParamId::TetMu};
  CHECK(std::find(all.begin(), all.end(), mu) != all.end());
  CHECK(view::element_coloring_label(mu) == "dL/d tet mu");
  const Scene box = soft_box();
  CHECK(view::element_coloring_applies(mu, box));
  CHECK(view::element_coloring_applies(all[1], box));
  CHECK(!view::element_coloring_applies({view::ElementColoring::Kind::Gradient, ParamId::TriangleStiffness}, box));
  CHECK(!view::element_coloring_applies(all[1], Scene{}));
}

TEST_CASE("element colours: tets' faces by stress on the sequential map, and by a gradient on the diverging one") {
  const Scene scene = soft_box();
  const Trajectory traj = stretched(scene, 1.2);
  const view::SceneDrawOptions options = view::scene_draw_options(scene, &traj, 1.5f);
  render::DrawList list = view::scene_draw_list(scene, &traj, 1, options);
  view::add_element_colors(list, {view::ElementColoring::Kind::Stress}, scene, &traj, 1, options, nullptr);
  REQUIRE(list.meshes.size() == 1);
  const render::Mesh& stressed = list.meshes[0];
  CHECK(stressed.positions.size() == 3 * size_t(options.tet_surface->face_count()));
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].map == render::ColorMap::Sequential);
  CHECK(list.legends[0].min == 0);
  CHECK(list.legends[0].max == doctest::Approx(view::tet_stress(scene, &traj, 1)[0]));
  // Every tet equally strained: every face at the top of the map.
  const render::Rgba top = render::map_value(render::ColorMap::Sequential, 1, 0, 1);
  CHECK(stressed.colors[0].r == doctest::Approx(top.r));
  CHECK(stressed.colors[0].g == doctest::Approx(top.g));
  CHECK(render::validate(list).ok());

  // dL/dk_mu: tet t's gradient is t - 4.5, so the faces of tet 9 are the reddest.
  Scene evaluated = scene;
  std::vector<double>& grad = evaluated.params[ParamId::TetMu].grad;
  grad.resize(10);
  for (int t = 0; t < 10; ++t) grad[size_t(t)] = t - 4.5;
  render::DrawList by_gradient = view::scene_draw_list(scene, &traj, 1, options);
  const view::ElementColoring mu{view::ElementColoring::Kind::Gradient, ParamId::TetMu};
  view::add_element_colors(by_gradient, mu, scene, &traj, 1, options, &evaluated);
  REQUIRE(by_gradient.legends.size() == 1);
  CHECK(by_gradient.legends[0].map == render::ColorMap::Diverging);
  CHECK(by_gradient.legends[0].min == -4.5f);
  CHECK(by_gradient.legends[0].max == 4.5f);
  const view::TetSurface& surface = *options.tet_surface;
  for (int f = 0; f < surface.face_count(); ++f) {
    const float g = float(surface.face_tet[size_t(f)] - 4.5);
    const render::Rgba want = render::map_value(render::ColorMap::Diverging, g, -4.5f, 4.5f);
    CHECK(by_gradient.meshes[0].colors[3 * size_t(f)].r == doctest::Approx(want.r));
    CHECK(by_gradient.meshes[0].colors[3 * size_t(f)].b == doctest::Approx(want.b));
  }
  // No gradients evaluated (or not one per tet): the surface keeps its colour.
  render::DrawList plain = view::scene_draw_list(scene, &traj, 1, options);
  view::add_element_colors(plain, mu, scene, &traj, 1, options, nullptr);
  Scene unevaluated = scene;
  unevaluated.params[ParamId::TetMu].grad.clear();
  view::add_element_colors(plain, mu, scene, &traj, 1, options, &unevaluated);
  CHECK(plain.meshes[0].colors.size() == 1);
  CHECK(plain.legends.empty());
}

TEST_CASE("element colours: cloth triangles by stress, bending edges' gradient on their shared edges") {
  // Two triangles of a 0.2 m square sharing the edge 0-2.
  Scene scene;
  scene.settings.steps = 2;
  scene.pinned = {0, 0, 0, 0};
  scene.triangles = {0, 1, 2, 0, 2, 3};
  scene.bending = bending_edges_of_triangles(scene.triangles);
  REQUIRE(scene.bending_count() == 1);
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.2, 1, 0, 0.2, 1.2, 0, 0, 1.2, 0};
  shape_parameters(scene);
  REQUIRE(check_scene(scene).ok());
  Trajectory traj = stretched(scene, 1.5);
  const view::SceneDrawOptions options = view::scene_draw_options(scene, &traj, 1.5f);
  render::DrawList list = view::scene_draw_list(scene, &traj, 2, options);
  view::add_element_colors(list, {view::ElementColoring::Kind::Stress}, scene, &traj, 2, options, nullptr);
  REQUIRE(list.meshes.size() == 1);
  CHECK(list.meshes[0].positions.size() == 6);
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].max > 0);

  Scene evaluated = scene;
  evaluated.params[ParamId::BendingStiffness].grad = {-0.25};
  render::DrawList edges = view::scene_draw_list(scene, &traj, 2, options);
  const size_t lines = edges.lines.size();
  view::add_element_colors(edges, {view::ElementColoring::Kind::Gradient, ParamId::BendingStiffness}, scene, &traj, 2,
                           options, &evaluated);
  REQUIRE(edges.lines.size() == lines + 1);
  const render::LineBatch& edge = edges.lines.back();
  REQUIRE(edge.points.size() == 2);
  CHECK(edge.points[0] == view::particle_position(scene, &traj, 2, scene.bending[2]));
  CHECK(edge.colors[0].b > edge.colors[0].r);  // negative: blue
  CHECK(edges.legends.back().min == -0.25f);
}

TEST_CASE("element colours: material points by speed at the frame, and by a per-point gradient") {
  Scene scene;
  scene.settings.dt = 0.01;
  scene.settings.steps = 2;
  MaterialPoints& mp = scene.material_points;
  mp.dims = 2;
  mp.cells = 16;
  mp.materials = {{"water", MaterialModel::Liquid}};
  mp.material = {0, 0, 0};
  mp.channel = {-1, -1, -1};
  shape_parameters(scene);
  scene.params[ParamId::PointPosition].value = {0.3, 0.5, 0, 0.5, 0.5, 0, 0.7, 0.5, 0};
  scene.params[ParamId::PointVelocity].value = {1, 0, 0, 0, 0, 0, 0, 2, 0};
  // Point q moves q cm in the step before step 1.
  Trajectory traj;
  traj.steps = 2, traj.points = 3, traj.dt = 0.01;
  traj.point_x = scene.params[ParamId::PointPosition].value;
  for (int t = 1; t <= 2; ++t)
    for (int q = 0; q < 3; ++q) traj.point_x.insert(traj.point_x.end(), {0.3 + 0.2 * q + 0.01 * q * t, 0.5, 0});
  const std::vector<view::ElementColoring>& all = view::element_colorings();
  const view::ElementColoring speed{view::ElementColoring::Kind::Speed};
  REQUIRE(std::find(all.begin(), all.end(), speed) != all.end());
  CHECK(view::element_coloring_applies(speed, scene));
  CHECK(!view::element_coloring_applies(speed, soft_box()));
  const view::ElementColoring mass{view::ElementColoring::Kind::Gradient, ParamId::PointMass};
  REQUIRE(std::find(all.begin(), all.end(), mass) != all.end());
  CHECK(view::element_coloring_applies(mass, scene));

  const view::SceneDrawOptions options = view::scene_draw_options(scene, &traj, 1.5f);
  render::DrawList list = view::scene_draw_list(scene, &traj, 1, options);
  REQUIRE(list.spheres.size() == 3);
  view::add_element_colors(list, speed, scene, &traj, 1, options, nullptr);
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].max == doctest::Approx(2.0));  // 2 cm in 0.01 s
  for (int q = 0; q < 3; ++q) {
    const render::Rgba want = render::map_value(render::ColorMap::Sequential, float(q), 0, 2);
    CHECK(list.spheres[size_t(q)].color.r == doctest::Approx(want.r));
    CHECK(list.spheres[size_t(q)].color.g == doctest::Approx(want.g));
  }
  // At the start: the initial velocities (1, 0 and 2 m/s).
  render::DrawList start = view::scene_draw_list(scene, &traj, 0, options);
  view::add_element_colors(start, speed, scene, &traj, 0, options, nullptr);
  REQUIRE(start.legends.size() == 1);
  CHECK(start.legends[0].max == doctest::Approx(2.0));
  CHECK(start.spheres[1].color.r == doctest::Approx(render::map_value(render::ColorMap::Sequential, 0, 0, 2).r));

  Scene evaluated = scene;
  evaluated.params[ParamId::PointMass].grad = {-1, 0, 3};
  render::DrawList by_gradient = view::scene_draw_list(scene, &traj, 1, options);
  view::add_element_colors(by_gradient, mass, scene, &traj, 1, options, &evaluated);
  REQUIRE(by_gradient.legends.size() == 1);
  CHECK(by_gradient.legends[0].map == render::ColorMap::Diverging);
  CHECK(by_gradient.legends[0].max == 3.0f);
  const render::Rgba reddest = render::map_value(render::ColorMap::Diverging, 3, -3, 3);
  CHECK(by_gradient.spheres[2].color.r == doctest::Approx(reddest.r));
  CHECK(render::validate(by_gradient).ok());
}
