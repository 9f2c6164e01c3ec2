// Gradient overlays drawn offscreen and checked by pixel: an arrow starts at its particle,
// points the way of its gradient, and has the sequential map's colour for its magnitude;
// springs have the diverging map's colour for the sign and size of their gradient. The
// overlays offered follow the table of parameter facts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "nudge/parameter_facts.h"
#include "nudge/render/camera.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/offscreen_target.h"
#include "view/gradient_overlay.h"
#include "view/state_adjoint_arrows.h"

using namespace nudge;

namespace {

constexpr int kWidth = 400, kHeight = 300;

render::GpuContext make_gpu() {
  render::ContextOptions options;
  options.validation = true;
  options.print_validation_messages = false;
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(options);
  REQUIRE_MESSAGE(gpu.ok(), (gpu.ok() ? "" : gpu.error().message));
  return std::move(*gpu);
}

// Looking down -z at the origin: world x goes right, y up.
render::DrawList empty_list() {
  render::DrawList list;
  list.camera.eye = {0, 0, 5};
  list.camera.target = {0, 0, 0};
  list.grid.visible = false;
  return list;
}

render::Image draw(render::GpuContext& gpu, const render::DrawList& list) {
  render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(gpu, kWidth, kHeight);
  REQUIRE(target.ok());
  render::Expected<render::Image> image = target->render(list);
  REQUIRE_MESSAGE(image.ok(), (image.ok() ? "" : image.error().message));
  return std::move(*image);
}

std::array<std::uint8_t, 4> pixel_at_world(const render::Image& image, const render::Camera& camera, glm::vec3 p) {
  const std::optional<glm::vec2> px = render::project_to_pixel(camera, p, kWidth, kHeight);
  REQUIRE(px.has_value());
  return render::pixel_at(image, int(px->x), int(px->y));
}

bool near(std::array<std::uint8_t, 4> got, render::Rgba want, int tolerance = 10) {
  const std::array<std::uint8_t, 4> w = render::to_bytes(want);
  for (int k = 0; k < 3; ++k)
    if (std::abs(int(got[k]) - int(w[k])) > tolerance) return false;
  return true;
}

// n particles at the given positions, springs between the given pairs, gradients unset.
Scene scene_with(const std::vector<double>& positions, const std::vector<std::pair<int, int>>& springs) {
  Scene scene;
  const int n = int(positions.size() / 3);
  scene.pinned.assign(size_t(n), 0);
  for (auto [a, b] : springs) {
    scene.spring_a.push_back(a);
    scene.spring_b.push_back(b);
    scene.spring_channel.push_back(-1);
    scene.actuation.push_back(0);
  }
  scene.params[ParamId::InitialPosition].value = positions;
  shape_parameters(scene);
  for (Parameter& p : scene.params.items) p.grad.assign(p.value.size(), 0.0);
  return scene;
}

// The picture both arrow tests draw: an arrow of full `length` along +x from (-1, 0, 0),
// and one half as long pointing down from (0.6, -0.3, 0).
void check_two_arrows(const render::Image& image, const render::DrawList& list, float length) {
  const render::Rgba largest = render::map_color(render::ColorMap::Sequential, 1.0f);
  const render::Rgba half = render::map_color(render::ColorMap::Sequential, 0.5f);
  // Along the shaft of arrow 0 (full length), to the right of particle 0: the top colour.
  CHECK(near(pixel_at_world(image, list.camera, {-1 + 0.4f * length, 0, 0}), largest));
  // Nothing on the other side: the sign of the gradient is the arrow's direction.
  CHECK(near(pixel_at_world(image, list.camera, {-1 - 0.4f * length, 0, 0}), list.background, 2));
  // Arrow 1 is half as long and points down, in the middle colour.
  CHECK(near(pixel_at_world(image, list.camera, {0.6f, -0.3f - 0.2f * length, 0}), half));
  CHECK(near(pixel_at_world(image, list.camera, {0.6f, -0.3f + 0.2f * length, 0}), list.background, 2));
}

}  // namespace

TEST_CASE("gradient overlay: arrows start at the particle, point along the gradient, coloured by magnitude") {
  render::GpuContext gpu = make_gpu();
  Scene scene = scene_with({-1, 0, 0, 0.6f, -0.3f, 0}, {});  // clear of the legend, top right
  // Particle 0: the larger gradient, along +x. Particle 1: half as large, along -y.
  scene.params[ParamId::InitialVelocity].grad = {2, 0, 0, 0, -1, 0};
  const float length = 1.2f;
  render::DrawList list = empty_list();
  view::add_particle_gradient_arrows(list, scene, ParamId::InitialVelocity, length);
  REQUIRE(list.arrows.size() == 1);
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].max == doctest::Approx(2));
  const render::Image image = draw(gpu, list);
  check_two_arrows(image, list, length);
  // Beyond its half length there is no shaft.
  CHECK(near(pixel_at_world(image, list.camera, {0.6f, -0.3f - 0.75f * length, 0}), list.background, 2));
}

TEST_CASE("gradient overlay: a body's arrows start at its initial centre and point along its gradient") {
  render::GpuContext gpu = make_gpu();
  Scene scene = scene_with({3, 3, 0}, {});  // one particle, out of the way
  scene.bodies = {RigidBody{}, RigidBody{}};
  shape_parameters(scene);
  scene.params[ParamId::BodyPosition].value = {-1, 0, 0, 0.6, -0.3, 0};
  scene.params[ParamId::BodyVelocity].grad = {2, 0, 0, 0, -1, 0};
  const float length = 1.2f;
  render::DrawList list = empty_list();
  view::add_body_gradient_arrows(list, scene, ParamId::BodyVelocity, length);
  REQUIRE(list.arrows.size() == 1);
  REQUIRE(list.arrows[0].origins.size() == 2);
  CHECK(list.arrows[0].origins[1] == glm::vec3(0.6f, -0.3f, 0));
  CHECK(list.legends[0].max == doctest::Approx(2));
  check_two_arrows(draw(gpu, list), list, length);
  CHECK(view::gradient_overlay_for_parameter("body_angular_velocity") ==
        view::GradientOverlay{ParamId::BodyAngularVelocity});
}

namespace {

// One body (a small sphere at (0.6, -0.3, 0)) on a hinge to the world whose anchor is at
// (-1, 0, 0), with dL/d(joint anchor) along +x; the body's own gradients are set too.
Scene hinged_body_scene() {
  Scene scene = scene_with({3, 3, 0}, {});  // one particle, out of the way
  scene.bodies = {RigidBody{}};
  scene.joints = {{"hinge", JointType::Hinge, -1, 0, {0, 0, 1}, false, 0, 0, false}};
  shape_parameters(scene);
  scene.params[ParamId::BodyRadius].value = {0.1};
  scene.params[ParamId::BodyPosition].value = {0.6, -0.3, 0};
  scene.params[ParamId::JointAnchor].value = {-1, 0, 0};
  scene.params[ParamId::BodyPosition].grad = {0, -1, 0};
  scene.params[ParamId::JointAnchor].grad = {2, 0, 0};
  return scene;
}

// A free base (a sphere, 0.2) carrying an arm on a hinge about z 1 m along its x (a
// capsule along the arm's x, which link_length stretches).
Articulations two_links() {
  Articulations a;
  a.links.resize(2);
  a.links[0].name = "base", a.links[0].joint = ArticulationJoint::Free;
  a.links[0].shapes.resize(1);
  a.links[0].shapes[0].size[0] = 0.2;
  a.links[1].name = "arm", a.links[1].parent = 0;
  a.links[1].length_axis[0] = 1;
  a.links[1].shapes.resize(1);
  LinkShape& capsule = a.links[1].shapes[0];
  capsule.kind = LinkShape::Kind::Capsule;
  capsule.size[0] = 0.05, capsule.size[1] = 0.3;
  capsule.pos[0] = 0.3;
  capsule.quat[1] = std::sqrt(0.5), capsule.quat[3] = std::sqrt(0.5);  // z to x
  return a;
}

}  // namespace

TEST_CASE("gradient overlay: links' arrows in the world's axes at their initial frames, their shapes tinted") {
  Scene scene = scene_with({3, 3, 0}, {});
  scene.articulations = two_links();
  shape_parameters(scene);
  // The base at (0, 1, 0); the arm 1 m along it, turned a quarter turn about z by its q.
  scene.params[ParamId::LinkTranslation].value = {0, 1, 0, 0, 0, 0};
  scene.params[ParamId::LinkPosition].value = {0, 0, 0, 1, 0, 0};
  scene.params[ParamId::LinkJointPosition].value = {0, std::numbers::pi / 2};
  scene.params[ParamId::LinkCom].value = {0, 0, 0, 0.5, 0, 0};
  scene.params[ParamId::LinkCom].grad = {0, 0, 0, 2, 0, 0};
  view::SceneDrawOptions options;
  options.bounds.lo = {-1, -1, -1};
  options.bounds.hi = {1, 1, 1};
  // The arm's centre of mass, 0.5 along its x, is at (1, 1.5, 0); its gradient along its
  // x points along the world's y. The base's zero gradient draws nothing.
  render::DrawList list = empty_list();
  view::add_gradient_overlay(list, {ParamId::LinkCom}, scene, nullptr, 0, options);
  REQUIRE(list.arrows.size() == 1);
  REQUIRE(list.arrows[0].origins.size() == 1);
  CHECK(glm::length(list.arrows[0].origins[0] - glm::vec3(1, 1.5, 0)) < 1e-6f);
  CHECK(glm::length(list.arrows[0].vectors[0] - glm::vec3(0, 2, 0)) < 1e-6f);
  // Only the free base has a translation: one arrow, at its origin, in the world's axes.
  scene.params[ParamId::LinkTranslation].grad = {0, 0, -3, 7, 7, 7};
  list = empty_list();
  view::add_gradient_overlay(list, {ParamId::LinkTranslation}, scene, nullptr, 0, options);
  REQUIRE(list.arrows.size() == 1);
  REQUIRE(list.arrows[0].origins.size() == 1);
  CHECK(list.arrows[0].origins[0] == glm::vec3(0, 1, 0));
  CHECK(list.arrows[0].vectors[0] == glm::vec3(0, 0, -3));
  // The masses' gradient tints each link's shape: the base +1 (the map's red end), the arm -0.5.
  scene.params[ParamId::LinkMass].grad = {1.0, -0.5};
  const render::DrawList plain = view::scene_draw_list(scene, nullptr, 0, options);
  REQUIRE(plain.meshes.size() == 2);
  list = plain;
  view::add_gradient_overlay(list, {ParamId::LinkMass}, scene, nullptr, 0, options);
  CHECK(list.meshes[0].colors[0] == render::map_value(render::ColorMap::Diverging, 1.0f, -1.0f, 1.0f));
  CHECK(list.meshes[1].colors[0] == render::map_value(render::ColorMap::Diverging, -0.5f, -1.0f, 1.0f));
  // q only on the hinge: the base keeps its colour, and the range is the arm's alone.
  scene.params[ParamId::LinkJointPosition].grad = {100.0, -2.0};
  list = plain;
  view::add_gradient_overlay(list, {ParamId::LinkJointPosition}, scene, nullptr, 0, options);
  CHECK(list.meshes[0].colors == plain.meshes[0].colors);
  CHECK(list.meshes[1].colors[0] == render::map_value(render::ColorMap::Diverging, -2.0f, -2.0f, 2.0f));
  CHECK(view::gradient_overlay_applies({ParamId::LinkJointPosition}, scene));
  CHECK_FALSE(view::gradient_overlay_applies({ParamId::LinkJointPosition}, scene_with({0, 0, 0}, {})));
}

// A link's felt-only shape (a URDF's <collision> geom) is drawn only with View > Collision
// Shapes, in one red, before the drawn shapes: the overlay tints the drawn ones alone.
TEST_CASE("gradient overlay: a link's felt-only shape is drawn on request and left untinted") {
  Scene scene = scene_with({3, 3, 0}, {});
  scene.articulations = two_links();
  CHECK_FALSE(view::has_collision_shapes(scene));
  LinkShape felt;
  felt.kind = LinkShape::Kind::Box;
  felt.size[0] = felt.size[1] = felt.size[2] = 0.25;
  felt.drawn = false;
  scene.articulations.links[0].shapes.insert(scene.articulations.links[0].shapes.begin(), felt);
  CHECK(view::has_collision_shapes(scene));
  shape_parameters(scene);
  scene.params[ParamId::LinkMass].grad = {1.0, -0.5};
  view::SceneDrawOptions options;
  options.bounds.lo = {-1, -1, -1};
  options.bounds.hi = {1, 1, 1};
  render::DrawList list = view::scene_draw_list(scene, nullptr, 0, options);
  REQUIRE(list.meshes.size() == 2);  // the base's sphere and the arm's capsule
  view::add_gradient_overlay(list, {ParamId::LinkMass}, scene, nullptr, 0, options);
  CHECK(list.meshes[0].colors[0] == render::map_value(render::ColorMap::Diverging, 1.0f, -1.0f, 1.0f));
  CHECK(list.meshes[1].colors[0] == render::map_value(render::ColorMap::Diverging, -0.5f, -1.0f, 1.0f));
  options.collision_shapes = true;
  list = view::scene_draw_list(scene, nullptr, 0, options);
  REQUIRE(list.meshes.size() == 3);
  CHECK(list.meshes[0].colors[0] == view::colors::kCollisionShape);
  view::add_gradient_overlay(list, {ParamId::LinkMass}, scene, nullptr, 0, options);
  CHECK(list.meshes[0].colors[0] == view::colors::kCollisionShape);
  CHECK(list.meshes[1].colors[0] == render::map_value(render::ColorMap::Diverging, 1.0f, -1.0f, 1.0f));
  CHECK(list.meshes[2].colors[0] == render::map_value(render::ColorMap::Diverging, -0.5f, -1.0f, 1.0f));
}

TEST_CASE("gradient overlay: a joint's anchor gradient is offered and drawn as an arrow at its initial anchor") {
  render::GpuContext gpu = make_gpu();
  const Scene scene = hinged_body_scene();
  const view::GradientOverlay overlay{ParamId::JointAnchor};
  REQUIRE(view::gradient_overlay_for_parameter("joint_anchor") == overlay);
  const std::vector<view::GradientOverlay>& offered = view::gradient_overlays();
  CHECK(std::find(offered.begin(), offered.end(), overlay) != offered.end());
  CHECK(view::gradient_overlay_label(overlay) == "dL/d joint anchor");
  CHECK(view::gradient_overlay_applies(overlay, scene));
  CHECK_FALSE(view::gradient_overlay_applies(overlay, scene_with({0, 0, 0}, {})));  // no joints
  CHECK_FALSE(view::is_spring_overlay(overlay));

  // Drawn through the same call as the viewport's: by the facts' element and overlay.
  view::SceneDrawOptions options;
  options.bounds.lo = {-1, -1, -1};
  options.bounds.hi = {1, 1, 1};
  render::DrawList list = empty_list();
  view::add_gradient_overlay(list, overlay, scene, nullptr, 0, options);
  REQUIRE(list.arrows.size() == 1);
  REQUIRE(list.arrows[0].origins.size() == 1);  // the joint's, not the body's
  CHECK(list.arrows[0].origins[0] == glm::vec3(-1, 0, 0));
  CHECK(list.arrows[0].vectors[0] == glm::vec3(2, 0, 0));
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].max == doctest::Approx(2));
  CHECK(list.legends[0].label.starts_with("dL/d joint_anchor: steepest ascent; 1 m = "));
  const float length = list.arrows[0].max_length;
  CHECK(length >= 3 * view::largest_body_reach(scene));  // as long as the body arrows
  const render::Image image = draw(gpu, list);
  // Along the shaft, to the right of the anchor: the top colour; nothing to its left.
  const render::Rgba largest = render::map_color(render::ColorMap::Sequential, 1.0f);
  CHECK(near(pixel_at_world(image, list.camera, {-1 + 0.4f * length, 0, 0}), largest));
  CHECK(near(pixel_at_world(image, list.camera, {-1 - 0.4f * length, 0, 0}), list.background, 2));
  CHECK(gpu.validation_message_count() == 0);
}

TEST_CASE("gradient overlay: every parameter the facts table draws has an overlay, in ParamId order") {
  // A scene with every kind of element: two particles and a spring, a body, a hinge.
  Scene scene = hinged_body_scene();
  scene.pinned.assign(2, 0);
  scene.spring_a = {0};
  scene.spring_b = {1};
  scene.spring_channel = {-1};
  scene.actuation = {0};
  scene.params[ParamId::InitialPosition].value = {-1, 1, 0, 1, 1, 0};
  RigidBody capsule;  // so that every size has a body
  capsule.shape = BodyShape::Capsule;
  scene.bodies.push_back(capsule);
  scene.articulations = two_links();
  shape_parameters(scene);
  for (Parameter& p : scene.params.items)
    for (std::size_t k = 0; k < p.grad.size(); ++k)
      p.grad[k] = (p.unused.size() > k && p.unused[k]) ? 0.0 : 1.0 + double(k);
  view::SceneDrawOptions options;
  options.bounds.hi = {1, 1, 1};
  const render::DrawList plain = view::scene_draw_list(scene, nullptr, 0, options);

  std::vector<view::GradientOverlay> expected{view::GradientOverlay::None};
  for (int i = 0; i < kParamCount; ++i) {
    const ParamId id = ParamId(i);
    const ParamFacts& facts = param_facts(id);
    INFO(param_name(id));
    const std::optional<view::GradientOverlay> overlay = view::gradient_overlay_for_parameter(param_name(id));
    if (facts.overlay == ParamOverlay::None) {
      CHECK_FALSE(overlay.has_value());
      continue;
    }
    expected.push_back({id});
    REQUIRE(overlay.has_value());
    CHECK(view::gradient_overlay_parameter(*overlay) == id);
    CHECK(view::gradient_overlay_label(*overlay).rfind("dL/d ", 0) == 0);
    CHECK(view::gradient_overlay_applies(*overlay, scene));
    CHECK(view::is_spring_overlay(*overlay) ==
          (facts.element == ParamElement::Spring && facts.overlay == ParamOverlay::Colors));
    // And it draws over the scene: arrows (one per element), coloured lines (springs) or
    // tinted bodies, with a legend.
    render::DrawList list = plain;
    view::add_gradient_overlay(list, *overlay, scene, nullptr, 0, options);
    CHECK(list.legends.size() == plain.legends.size() + 1);
    if (facts.overlay == ParamOverlay::Arrows) {
      REQUIRE(list.arrows.size() == plain.arrows.size() + 1);
      int drawn = scene.params[id].rows;  // a link whose joint has no use for it has no arrow
      if (facts.element == ParamElement::Link)
        for (int k = 0; k < scene.articulations.link_count(); ++k)
          drawn -= !view::link_uses(scene.articulations, id, k);
      CHECK(int(list.arrows.back().origins.size()) == drawn);
    } else if (facts.element == ParamElement::Spring) {
      CHECK(list.lines.size() == plain.lines.size() + 1);
    } else {
      REQUIRE((facts.element == ParamElement::Body || facts.element == ParamElement::Link));
      int tinted = 0;
      for (std::size_t m = 0; m < list.meshes.size(); ++m) tinted += list.meshes[m].colors != plain.meshes[m].colors;
      CHECK(tinted >= 1);
    }
  }
  CHECK(view::gradient_overlays() == expected);
  // The labels the studio has always shown stay, and they differ from one another.
  CHECK(view::gradient_overlay_label(view::GradientOverlay::None) == "none");
  CHECK(view::gradient_overlay_label({ParamId::InitialVelocity}) == "dL/d initial velocity");
  CHECK(view::gradient_overlay_label({ParamId::RestLength}) == "dL/d rest length");
  CHECK(view::gradient_overlay_label({ParamId::BodyAngularVelocity}) == "dL/d body angular velocity");
  std::vector<std::string> labels;
  for (view::GradientOverlay overlay : expected) labels.push_back(view::gradient_overlay_label(overlay));
  std::sort(labels.begin(), labels.end());
  CHECK(std::adjacent_find(labels.begin(), labels.end()) == labels.end());
}

TEST_CASE("gradient overlay: springs take the diverging colour of their gradient's sign and size") {
  render::GpuContext gpu = make_gpu();
  Scene scene = scene_with({-1.5, -0.5, 0, 0, -0.5, 0, 1.5, -0.5, 0}, {{0, 1}, {1, 2}});
  scene.params[ParamId::Stiffness].grad = {3.0, -1.5};
  render::DrawList list = empty_list();
  view::add_spring_gradient_colors(list, scene, nullptr, 0, ParamId::Stiffness);
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].min == doctest::Approx(-3));
  CHECK(list.legends[0].max == doctest::Approx(3));
  const render::Image image = draw(gpu, list);
  // +3 of [-3, 3]: the red end. -1.5: a quarter of the way, light blue.
  CHECK(near(pixel_at_world(image, list.camera, {-0.75f, -0.5f, 0}),
             render::map_color(render::ColorMap::Diverging, 1.0f)));
  CHECK(near(pixel_at_world(image, list.camera, {0.75f, -0.5f, 0}),
             render::map_color(render::ColorMap::Diverging, 0.25f)));
}

TEST_CASE("gradient overlay: bodies take the diverging colour of their density's or size's gradient") {
  Scene scene = scene_with({3, 3, 0}, {});
  RigidBody box;
  box.shape = BodyShape::Box;
  scene.bodies = {RigidBody{}, box, RigidBody{}};
  shape_parameters(scene);
  scene.params[ParamId::BodyRadius].grad = {2.0, 0.0, -1.0};
  view::SceneDrawOptions options;
  options.bounds.hi = {1, 1, 1};
  const render::DrawList plain = view::scene_draw_list(scene, nullptr, 0, options);
  render::DrawList list = plain;
  view::add_body_gradient_colors(list, scene, ParamId::BodyRadius);
  REQUIRE(list.meshes.size() == 3);
  CHECK(list.meshes[0].colors[0] == render::map_value(render::ColorMap::Diverging, 2.0f, -2.0f, 2.0f));
  CHECK(list.meshes[1].colors == plain.meshes[1].colors);  // a box has no radius
  CHECK(list.meshes[2].colors[0] == render::map_value(render::ColorMap::Diverging, -1.0f, -2.0f, 2.0f));
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].max == doctest::Approx(2));
  // The half length's overlay is offered only where some body is a capsule.
  CHECK_FALSE(view::gradient_overlay_applies({ParamId::BodyHalfLength}, scene));
  CHECK(view::gradient_overlay_applies({ParamId::BodyRadius}, scene));
}

// The complaint: normalised arrows draw a 2e-13 gradient at the optimum as long as 4.6 at
// the start. At a fixed scale an arrow's length is the gradient's size times the scale,
// and the legend says which scale and that the arrows point where the loss increases.
TEST_CASE("gradient overlay: normalised or at a fixed scale, stated in the legend") {
  Scene scene = scene_with({0, 0, 0, 1, 0, 0}, {});
  scene.params[ParamId::InitialVelocity].grad = {4, 0, 0, 0, -2, 0};
  const float length = 1.0f;
  render::DrawList normalised = empty_list();
  const float used = view::add_particle_gradient_arrows(normalised, scene, ParamId::InitialVelocity, length);
  CHECK(used == doctest::Approx(0.25));  // the longest (4) is `length` long
  REQUIRE(normalised.arrows.size() == 1);
  CHECK(normalised.arrows[0].scale == doctest::Approx(0.25));
  CHECK(normalised.legends[0].label ==
        "dL/d initial_velocity: steepest ascent; 1 m = 4 (loss per m/s); longest normalised");

  // The optimiser has shrunk the gradient a million times: at the start's scale the
  // arrows are a millionth as long; normalised they would look the same.
  scene.params[ParamId::InitialVelocity].grad = {4e-6, 0, 0, 0, -2e-6, 0};
  render::DrawList fixed = empty_list();
  const view::ArrowScale start{.fixed = true, .metres_per_unit = used};
  CHECK(view::add_particle_gradient_arrows(fixed, scene, ParamId::InitialVelocity, length, start) == used);
  REQUIRE(fixed.arrows.size() == 1);
  CHECK(fixed.arrows[0].scale == doctest::Approx(0.25));
  CHECK(fixed.arrows[0].scale * glm::length(fixed.arrows[0].vectors[0]) == doctest::Approx(1e-6));
  CHECK(fixed.legends[0].label == "dL/d initial_velocity: steepest ascent; 1 m = 4 (loss per m/s); fixed scale");
  // A gradient much larger than the scale expected is cut at 4 lengths, not across the scene.
  CHECK(fixed.arrows[0].max_length == doctest::Approx(view::ArrowScale::kFixedScaleReach * length));
  // A fixed scale that is not set yet draws normalised.
  render::DrawList unset = empty_list();
  CHECK(view::add_particle_gradient_arrows(unset, scene, ParamId::InitialVelocity, length, {.fixed = true}) ==
        doctest::Approx(0.25e6));
}

TEST_CASE("gradient overlay: zero or missing gradients draw nothing") {
  Scene scene = scene_with({0, 0, 0, 1, 0, 0}, {{0, 1}});
  render::DrawList list = empty_list();
  view::add_particle_gradient_arrows(list, scene, ParamId::InitialPosition, 1.0f);
  CHECK(list.arrows.empty());
  CHECK(list.legends.empty());
  scene.params[ParamId::Stiffness].grad.clear();  // no gradient evaluation yet
  view::add_spring_gradient_colors(list, scene, nullptr, 0, ParamId::Stiffness);
  CHECK(list.lines.empty());
}

TEST_CASE("state adjoint arrows: at each particle's position at the step, along dL/dx_t, none before a horizon") {
  render::GpuContext gpu = make_gpu();
  Scene scene = scene_with({0, 0, 0, 0, 0, 0}, {});
  // A two-step motion: at step 1 particle 0 is at (-1, 0, 0), particle 1 at (0.6, -0.3, 0).
  Trajectory traj;
  traj.steps = 2;
  traj.particles = 2;
  traj.dt = 0.01;
  traj.x = {0, 0, 0, 0, 0, 0, -1, 0, 0, 0.6, -0.3, 0, 5, 5, 0, 5, 5, 0};
  traj.v.assign(traj.x.size(), 0.0);
  StateAdjoints adjoints;
  adjoints.steps = 2;
  adjoints.particles = 2;
  adjoints.x = {0, 0, 0, 0, 0, 0, 4, 0, 0, 0, -2, 0, 1, 1, 1, 1, 1, 1};  // step 0: zero (beyond a horizon)
  adjoints.v.assign(adjoints.x.size(), 0.0);
  const float length = 1.2f;

  render::DrawList before = empty_list();
  view::add_state_adjoint_arrows(before, scene, traj, adjoints, 0, length);
  CHECK(before.arrows.empty());
  CHECK(before.legends.empty());

  render::DrawList list = empty_list();
  view::add_state_adjoint_arrows(list, scene, traj, adjoints, 1, length);
  REQUIRE(list.arrows.size() == 1);
  REQUIRE(list.legends.size() == 1);
  CHECK(list.legends[0].max == doctest::Approx(4));
  const render::Image image = draw(gpu, list);
  check_two_arrows(image, list, length);
  CHECK(gpu.validation_message_count() == 0);
}
