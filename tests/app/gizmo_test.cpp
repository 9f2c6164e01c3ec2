// The translate gizmo: its handles are hit where they are drawn, dragging keeps the
// grabbed point under the cursor (each axis and the view plane, from several cameras),
// an axis pointing at the eye does not blow up, snapping and the default grid step.
#include <doctest/doctest.h>

#include <cmath>

#include "nudge/render/camera.h"
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "view/gizmo.h"
#include "view/picking.h"

using namespace nudge;
using view::GizmoHandle;

namespace {

constexpr view::PixelRect kViewport{10, 20, 640, 480};

view::ViewportProjector projector_at(glm::vec3 eye, glm::vec3 target = {0.2f, 0.1f, -0.1f}) {
  render::Camera camera;
  camera.eye = eye;
  camera.target = target;
  camera.near_plane = 0.01f;
  camera.far_plane = 100;
  return view::ViewportProjector(camera, kViewport);
}

// Cameras from the front right above, the left below, nearly overhead and straight down z.
std::vector<view::ViewportProjector> projectors() {
  return {projector_at({3, 2, 4}), projector_at({-2.5f, -1.5f, 2}), projector_at({0.4f, 5, 0.9f}),
          projector_at({0.2f, 0.1f, 5}), projector_at({4, 0.5f, -3})};
}

constexpr glm::dvec3 kOrigin{0.3, 0.2, -0.1};

glm::dvec2 pixel_of(const view::ViewportProjector& projector, glm::dvec3 world) {
  const std::optional<glm::dvec2> p = projector.to_pixel(world);
  REQUIRE(p);
  return *p;
}

bool near(glm::dvec3 a, glm::dvec3 b, double tolerance) { return glm::length(a - b) <= tolerance; }

}  // namespace

TEST_CASE("gizmo: a constant size on screen, its handles hit where they are drawn") {
  // Straight down z: the x and y arrows lie across the view, arrow_pixels long.
  {
    const view::ViewportProjector projector = projector_at({0.3f, 0.2f, 5}, glm::vec3(kOrigin));
    const std::optional<view::GizmoScreen> screen = view::gizmo_screen(projector, kOrigin);
    REQUIRE(screen);
    REQUIRE(screen->tips[0]);
    CHECK(glm::length(*screen->tips[0] - screen->origin) == doctest::Approx(90).epsilon(1e-9));
    CHECK(glm::length(*screen->tips[1] - screen->origin) == doctest::Approx(90).epsilon(1e-9));
    // Farther away, the same size on screen.
    const view::ViewportProjector far = projector_at({0.3f, 0.2f, 40}, glm::vec3(kOrigin));
    const std::optional<view::GizmoScreen> far_screen = view::gizmo_screen(far, kOrigin);
    REQUIRE(far_screen);
    CHECK(glm::length(*far_screen->tips[0] - far_screen->origin) == doctest::Approx(90).epsilon(1e-9));
    CHECK(view::gizmo_world_length(far, kOrigin) > 7 * view::gizmo_world_length(projector, kOrigin));
  }
  for (const view::ViewportProjector& projector : {projector_at({3, 2, 4}), projector_at({-2.5f, -1.5f, 2})}) {
    const std::optional<view::GizmoScreen> screen = view::gizmo_screen(projector, kOrigin);
    REQUIRE(screen);
    CHECK(view::gizmo_handle_at(projector, kOrigin, screen->origin) == GizmoHandle::ViewPlane);
    CHECK(view::gizmo_handle_at(projector, kOrigin, screen->origin + glm::dvec2(8, -8)) == GizmoHandle::ViewPlane);
    for (int k = 0; k < 3; ++k) {
      REQUIRE(screen->tips[size_t(k)]);
      const glm::dvec2 tip = *screen->tips[size_t(k)];
      const auto handle = static_cast<GizmoHandle>(int(GizmoHandle::X) + k);
      const glm::dvec2 along = screen->origin + 0.75 * (tip - screen->origin);
      const glm::dvec2 across = glm::normalize(glm::dvec2(-(tip - screen->origin).y, (tip - screen->origin).x));
      CHECK(view::gizmo_handle_at(projector, kOrigin, along) == handle);
      CHECK(view::gizmo_handle_at(projector, kOrigin, along + 4.0 * across) == handle);
      CHECK(view::gizmo_handle_at(projector, kOrigin, tip) == handle);
      CHECK(view::gizmo_handle_at(projector, kOrigin, along + 20.0 * across) != handle);
      CHECK(view::gizmo_handle_at(projector, kOrigin, screen->origin + 1.5 * (tip - screen->origin)) ==
            GizmoHandle::None);
    }
    CHECK(view::gizmo_handle_at(projector, kOrigin, screen->origin + glm::dvec2(200, 200)) == GizmoHandle::None);
  }
  // Behind the eye: no gizmo.
  const view::ViewportProjector projector = projector_at({0, 0, 5}, {0, 0, 0});
  CHECK_FALSE(view::gizmo_screen(projector, {0, 0, 7}));
  CHECK(view::gizmo_handle_at(projector, {0, 0, 7}, {330, 260}) == GizmoHandle::None);
}

TEST_CASE("gizmo: dragging an axis keeps the grabbed point of the axis under the cursor") {
  for (const view::ViewportProjector& projector : projectors()) {
    const double length = view::gizmo_world_length(projector, kOrigin);
    for (GizmoHandle handle : {GizmoHandle::X, GizmoHandle::Y, GizmoHandle::Z}) {
      const glm::dvec3 axis = view::gizmo_axis(handle);
      // Skip an axis seen end-on (checked below).
      if (glm::length(glm::cross(axis, glm::normalize(kOrigin - projector.eye()))) < 0.2) continue;
      CAPTURE(int(handle));
      CAPTURE(projector.eye().x);
      for (const double grab : {0.5, 1.0}) {
        for (const double move : {0.37, -0.6, 1.3}) {
          const glm::dvec3 grabbed = kOrigin + grab * length * axis;
          const glm::dvec3 moved_to = grabbed + move * length * axis;
          const glm::dvec3 offset = view::drag_offset(projector, kOrigin, handle, pixel_of(projector, grabbed),
                                                      pixel_of(projector, moved_to));
          CHECK(near(offset, move * length * axis, 1e-7 * length));
          CHECK(glm::length(pixel_of(projector, grabbed + offset) - pixel_of(projector, moved_to)) < 1e-6);
        }
        // Off the axis's line on screen the movement is still along the axis only, to the
        // point of the axis nearest the cursor's ray.
        const glm::dvec2 press = pixel_of(projector, kOrigin + grab * length * axis);
        const glm::dvec3 offset = view::drag_offset(projector, kOrigin, handle, press, press + glm::dvec2(17, -23));
        CHECK(near(offset, glm::dot(offset, axis) * axis, 1e-12));
        CHECK(glm::length(offset) < 10 * length);
      }
      CHECK(view::drag_offset(projector, kOrigin, handle, {100, 100}, {100, 100}) == glm::dvec3(0, 0, 0));
    }
  }
}

TEST_CASE("gizmo: dragging the centre square moves in the plane facing the camera") {
  for (const view::ViewportProjector& projector : projectors()) {
    const double length = view::gizmo_world_length(projector, kOrigin);
    const glm::dvec3 right = projector.right() * length, up = projector.up() * length;
    for (const glm::dvec3 grab : {glm::dvec3(0, 0, 0), 0.1 * right - 0.05 * up}) {
      for (const glm::dvec3 move : {0.5 * right, -0.7 * up + 0.2 * right, 3.0 * right + 2.0 * up}) {
        const glm::dvec3 offset =
            view::drag_offset(projector, kOrigin, GizmoHandle::ViewPlane, pixel_of(projector, kOrigin + grab),
                              pixel_of(projector, kOrigin + grab + move));
        CHECK(near(offset, move, 1e-8 * length));
        CHECK(std::fabs(glm::dot(offset, projector.forward())) < 1e-9 * length);
      }
    }
    CHECK(view::drag_offset(projector, kOrigin, GizmoHandle::None, {100, 100}, {200, 150}) == glm::dvec3(0, 0, 0));
  }
}

TEST_CASE("gizmo: an axis pointing at the eye does not blow up") {
  const glm::dvec3 origin{0, 0, 0};
  for (const glm::vec3 eye : {glm::vec3(0, 0, 5), glm::vec3(0.05f, 0, 5), glm::vec3(0.2f, 0.1f, 5),
                              glm::vec3(0.6f, 0, 5), glm::vec3(0, 0, -5)}) {
    const view::ViewportProjector projector = projector_at(eye, {0, 0, 0});
    const double length = view::gizmo_world_length(projector, origin);
    const glm::dvec2 center = pixel_of(projector, origin);
    for (const glm::dvec2 press : {center, center + glm::dvec2(3, 1), center + glm::dvec2(-40, 25)})
      for (const glm::dvec2 now : {center + glm::dvec2(5, 0), center + glm::dvec2(-300, 200),
                                   center + glm::dvec2(0.01, 0), glm::dvec2(10, 20)}) {
        const glm::dvec3 offset = view::drag_offset(projector, origin, GizmoHandle::Z, press, now);
        CAPTURE(eye.x);
        CHECK(std::isfinite(offset.x));
        CHECK(std::isfinite(offset.y));
        CHECK(std::isfinite(offset.z));
        CHECK(offset.x == 0);
        CHECK(offset.y == 0);
        CHECK(std::fabs(offset.z) <= 100 * length * (1 + 1e-12));
      }
  }
  // Exactly end-on, the axis does not move at all.
  const view::ViewportProjector end_on = projector_at({0, 0, 5}, {0, 0, 0});
  const glm::dvec2 center = pixel_of(end_on, origin);
  CHECK(view::drag_offset(end_on, origin, GizmoHandle::Z, center, center + glm::dvec2(50, 0)) == glm::dvec3(0, 0, 0));
  // The handle under the cursor there is the centre square, not the arrow.
  CHECK(view::gizmo_handle_at(end_on, origin, center) == GizmoHandle::ViewPlane);
}

TEST_CASE("gizmo: snapping and the default grid step") {
  CHECK(view::snap({0.123, -0.456, 0.07}, 0.1).x == doctest::Approx(0.1));
  CHECK(view::snap({0.123, -0.456, 0.07}, 0.1).y == doctest::Approx(-0.5));
  CHECK(view::snap({0.123, -0.456, 0.07}, 0.1).z == doctest::Approx(0.1));
  CHECK(view::snap({0.123, -0.456, 0.07}, 0.25) == glm::dvec3(0.0, -0.5, 0.0));
  CHECK(view::snap({0.123, -0.456, 0.07}, 0) == glm::dvec3(0.123, -0.456, 0.07));
  CHECK(view::snap({0.123, -0.456, 0.07}, -1) == glm::dvec3(0.123, -0.456, 0.07));
  const auto step_for = [](float half_size) {
    view::Bounds bounds;
    bounds.lo = glm::vec3(-half_size);
    bounds.hi = glm::vec3(half_size);
    return view::default_snap_step(bounds);
  };
  CHECK(step_for(0.5f) == doctest::Approx(0.1));  // a 1 m cube, radius 0.87 m
  CHECK(step_for(1.5f) == doctest::Approx(0.1));
  CHECK(step_for(5) == doctest::Approx(1));
  CHECK(step_for(0.05f) == doctest::Approx(0.01));
  CHECK(step_for(0) == doctest::Approx(0.01));  // the smallest bounds radius, 0.05 m
}

TEST_CASE("gizmo: drawn as three arrows and a square, the highlighted handle brighter") {
  const view::ViewportProjector projector = projector_at({3, 2, 4});
  for (GizmoHandle highlighted : {GizmoHandle::None, GizmoHandle::Y, GizmoHandle::ViewPlane}) {
    render::DrawList list;
    view::add_gizmo(list, projector, kOrigin, highlighted);
    CHECK(render::validate(list).ok());
    size_t arrows = 0;
    for (const render::ArrowBatch& batch : list.arrows) {
      for (size_t i = 0; i < batch.origins.size(); ++i) {
        ++arrows;
        CHECK(near(glm::dvec3(batch.origins[i]), kOrigin, 1e-6));
        const glm::dvec3 v = batch.vectors[i];
        const double length = view::gizmo_world_length(projector, kOrigin);
        CHECK(glm::length(v) == doctest::Approx(length).epsilon(1e-5));
        const int k = std::fabs(v.x) > 0 ? 0 : std::fabs(v.y) > 0 ? 1 : 2;
        const auto handle = static_cast<GizmoHandle>(int(GizmoHandle::X) + k);
        const render::Rgba c = batch.colors[i];
        const render::Rgba expected = view::gizmo_color(handle, handle == highlighted);
        CHECK(c.r == expected.r);
        CHECK(c.g == expected.g);
        CHECK(c.b == expected.b);
        CHECK(batch.width_pixels == (handle == highlighted ? 5.0f : 3.0f));
      }
    }
    CHECK(arrows == 3);
    REQUIRE(list.lines.size() == 1);
    const render::LineBatch& square = list.lines[0];
    CHECK(square.strip);
    REQUIRE(square.points.size() == 5);
    const glm::dvec2 corner = pixel_of(projector, glm::dvec3(square.points[0])), center = pixel_of(projector, kOrigin);
    CHECK(std::fabs(std::fabs(corner.x - center.x) - 8) < 1e-3);
    CHECK(std::fabs(std::fabs(corner.y - center.y) - 8) < 1e-3);
    CHECK(square.width_pixels == (highlighted == GizmoHandle::ViewPlane ? 3.5f : 2.0f));
  }
  // Colours: x red, y green, z blue; highlighted brighter.
  CHECK(view::gizmo_color(GizmoHandle::X, false).r > 0.8f);
  CHECK(view::gizmo_color(GizmoHandle::Y, false).g > 0.8f);
  CHECK(view::gizmo_color(GizmoHandle::Z, false).b > 0.8f);
  for (GizmoHandle h : {GizmoHandle::X, GizmoHandle::Y, GizmoHandle::Z, GizmoHandle::ViewPlane}) {
    const render::Rgba dim = view::gizmo_color(h, false), lit = view::gizmo_color(h, true);
    CHECK(lit.r + lit.g + lit.b > dim.r + dim.g + dim.b);
  }
}

TEST_CASE("turn and scale gizmo: its matrix gives back the turn and the scale, wherever the pivot") {
  const glm::dvec3 axes[] = {{0, 1, 0}, {1, 0, 0}, glm::normalize(glm::dvec3{1, 2, -0.5})};
  for (const glm::dvec3& axis : axes)
    for (const double degrees : {0.0, 15.0, 90.0, 179.0})
      for (const double scale : {0.5, 1.0, 2.5}) {
        CAPTURE(degrees);
        CAPTURE(scale);
        const glm::dquat q = glm::angleAxis(glm::radians(degrees), axis);
        const glm::dvec3 pivot{0.3, -1.2, 4.0};
        // translate(pivot) R S translate(-pivot), in float as ImGuizmo keeps it.
        const glm::dmat4 m = glm::translate(glm::dmat4(1), pivot) * glm::mat4_cast(q) *
                             glm::scale(glm::dmat4(1), glm::dvec3(scale)) * glm::translate(glm::dmat4(1), -pivot);
        const std::optional<view::TurnScale> got = view::turn_scale_of(glm::mat4(m));
        REQUIRE(got.has_value());
        CHECK(got->scale == doctest::Approx(scale).epsilon(1e-6));
        CHECK(got->degrees() == doctest::Approx(degrees).epsilon(1e-4).scale(1));
        // The same turn (q and -q are one rotation).
        CHECK(std::abs(glm::dot(got->rotation, q)) == doctest::Approx(1.0).epsilon(1e-6));
      }
}

TEST_CASE("turn and scale gizmo: a matrix that collapses or is not finite is no change") {
  CHECK(!view::turn_scale_of(glm::mat4(0.0f)).has_value());
  glm::mat4 bad(1.0f);
  bad[0][0] = std::nanf("");
  CHECK(!view::turn_scale_of(bad).has_value());
  const std::optional<view::TurnScale> identity = view::turn_scale_of(glm::mat4(1.0f));
  REQUIRE(identity.has_value());
  CHECK(identity->scale == 1.0);
  CHECK(identity->degrees() == 0.0);
}
