#include "view/gizmo.h"

#include <algorithm>
#include <cmath>

namespace nudge::view {

namespace {

constexpr double kMinAxisSine = 0.05;    // about 3 degrees between the axis and the ray: no movement
constexpr double kMaxDragLengths = 100;  // gizmo lengths: the most one drag moves along an axis

// Pixels from p to the segment a-b.
double segment_distance(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double s = len2 > 0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + s * ab));
}

// The point of the line origin + s axis nearest the ray: s, and the ray's parameter t
// there. Empty when they are (nearly) parallel: sin of their angle below min_sine.
struct AxisNearest {
  double s, t;
};
std::optional<AxisNearest> axis_nearest(glm::dvec3 origin, glm::dvec3 axis, const Ray& ray, double min_sine) {
  const glm::dvec3 w = origin - ray.origin;
  const double b = glm::dot(axis, ray.direction), den = 1 - b * b;  // sin^2 of the angle
  if (!(den >= min_sine * min_sine) || den <= 0) return std::nullopt;
  const double along_axis = glm::dot(axis, w), along_ray = glm::dot(ray.direction, w);
  return AxisNearest{(b * along_ray - along_axis) / den, (along_ray - b * along_axis) / den};
}

render::Rgba mix(render::Rgba c, render::Rgba d, float f) {
  return {c.r + f * (d.r - c.r), c.g + f * (d.g - c.g), c.b + f * (d.b - c.b), c.a + f * (d.a - c.a)};
}

glm::vec3 fvec(glm::dvec3 v) { return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)}; }

}  // namespace

glm::dvec3 gizmo_axis(GizmoHandle handle) {
  switch (handle) {
    case GizmoHandle::X: return {1, 0, 0};
    case GizmoHandle::Y: return {0, 1, 0};
    case GizmoHandle::Z: return {0, 0, 1};
    case GizmoHandle::None:
    case GizmoHandle::ViewPlane: break;
  }
  return {0, 0, 0};
}

double gizmo_world_length(const ViewportProjector& projector, glm::dvec3 origin, const GizmoStyle& style) {
  return style.arrow_pixels * projector.pixel_size(projector.depth(origin));
}

std::optional<GizmoScreen> gizmo_screen(const ViewportProjector& projector, glm::dvec3 origin,
                                        const GizmoStyle& style) {
  const std::optional<glm::dvec2> at = projector.to_pixel(origin);
  if (!at) return std::nullopt;
  GizmoScreen screen;
  screen.origin = *at;
  screen.square_half = style.square_half_pixels;
  const double length = gizmo_world_length(projector, origin, style);
  for (int k = 0; k < 3; ++k) {
    glm::dvec3 tip = origin;
    tip[k] += length;
    screen.tips[size_t(k)] = projector.to_pixel(tip);
  }
  return screen;
}

GizmoHandle gizmo_handle_at(const ViewportProjector& projector, glm::dvec3 origin, glm::dvec2 mouse,
                            const GizmoStyle& style) {
  const std::optional<GizmoScreen> screen = gizmo_screen(projector, origin, style);
  if (!screen) return GizmoHandle::None;
  const glm::dvec2 from_origin = glm::abs(mouse - screen->origin);
  if (std::max(from_origin.x, from_origin.y) <= screen->square_half + style.grab_pixels) return GizmoHandle::ViewPlane;
  GizmoHandle best = GizmoHandle::None;
  double nearest = style.grab_pixels;
  for (int k = 0; k < 3; ++k) {
    if (!screen->tips[size_t(k)]) continue;
    const double d = segment_distance(mouse, screen->origin, *screen->tips[size_t(k)]);
    if (d <= nearest) {
      nearest = d;
      best = static_cast<GizmoHandle>(static_cast<int>(GizmoHandle::X) + k);
    }
  }
  return best;
}

glm::dvec3 drag_offset(const ViewportProjector& projector, glm::dvec3 origin, GizmoHandle handle,
                       glm::dvec2 mouse_at_press, glm::dvec2 mouse_now, const GizmoStyle& style) {
  if (handle == GizmoHandle::None || !(projector.depth(origin) > 0)) return {0, 0, 0};
  const Ray press = projector.ray(mouse_at_press), now = projector.ray(mouse_now);
  if (handle == GizmoHandle::ViewPlane) {
    // The plane through the origin facing the camera; every ray through the viewport
    // runs forwards, so meets it in front of the eye.
    const glm::dvec3 n = projector.forward();
    const double rate_press = glm::dot(n, press.direction), rate_now = glm::dot(n, now.direction);
    if (!(rate_press > 1e-9) || !(rate_now > 1e-9)) return {0, 0, 0};
    const double height = glm::dot(n, origin - projector.eye());
    return now.at(height / rate_now) - press.at(height / rate_press);
  }
  const glm::dvec3 axis = gizmo_axis(handle);
  const std::optional<AxisNearest> grabbed = axis_nearest(origin, axis, press, kMinAxisSine);
  if (!grabbed) return {0, 0, 0};  // looking down the axis: no way to tell how far
  const double limit = kMaxDragLengths * gizmo_world_length(projector, origin, style);
  // Towards the axis's vanishing point on screen the nearest point runs off to infinity
  // along the way the axis goes away from the eye; past it, the ray meets the axis behind the eye.
  const double away = glm::dot(axis, projector.forward()) >= 0 ? 1.0 : -1.0;
  double moved = away * limit;
  if (const std::optional<AxisNearest> current = axis_nearest(origin, axis, now, 1e-9); current && current->t > 0)
    moved = std::clamp(current->s - grabbed->s, -limit, limit);
  return moved * axis;
}

glm::dvec3 snap(glm::dvec3 offset, double step) {
  if (!(step > 0)) return offset;
  for (int k = 0; k < 3; ++k) offset[k] = std::round(offset[k] / step) * step;
  return offset;
}

double default_snap_step(const Bounds& bounds) {
  return std::pow(10.0, std::round(std::log10(static_cast<double>(bounds.radius())))) / 10;
}

double TurnScale::degrees() const { return glm::degrees(2 * std::acos(std::min(1.0, std::abs(rotation.w)))); }

std::optional<TurnScale> turn_scale_of(const glm::mat4& matrix) {
  const glm::dmat3 linear{glm::mat3(matrix)};
  const double scale = (glm::length(linear[0]) + glm::length(linear[1]) + glm::length(linear[2])) / 3.0;
  if (!(scale > 0) || !std::isfinite(scale)) return std::nullopt;
  return TurnScale{glm::normalize(glm::quat_cast(linear / scale)), scale};
}

render::Rgba gizmo_color(GizmoHandle handle, bool highlighted) {
  render::Rgba c{0.85f, 0.85f, 0.85f, 1};
  switch (handle) {
    case GizmoHandle::X: c = {0.9f, 0.22f, 0.22f, 1}; break;
    case GizmoHandle::Y: c = {0.3f, 0.82f, 0.28f, 1}; break;
    case GizmoHandle::Z: c = {0.25f, 0.45f, 0.95f, 1}; break;
    case GizmoHandle::None:
    case GizmoHandle::ViewPlane: break;
  }
  return highlighted ? mix(c, {1, 1, 0.75f, 1}, 0.55f) : c;
}

void add_gizmo(render::DrawList& list, const ViewportProjector& projector, glm::dvec3 origin, GizmoHandle highlighted,
               const GizmoStyle& style) {
  const double depth = projector.depth(origin);
  if (!(depth > 0)) return;
  const double length = gizmo_world_length(projector, origin, style);
  render::ArrowBatch arrows, bright;
  arrows.width_pixels = 3;
  bright.width_pixels = 5;
  for (GizmoHandle handle : {GizmoHandle::X, GizmoHandle::Y, GizmoHandle::Z}) {
    const bool lit = handle == highlighted;
    render::ArrowBatch& batch = lit ? bright : arrows;
    batch.origins.push_back(fvec(origin));
    batch.vectors.push_back(fvec(length * gizmo_axis(handle)));
    batch.colors.push_back(gizmo_color(handle, lit));
  }
  if (!arrows.origins.empty()) list.arrows.push_back(std::move(arrows));
  if (!bright.origins.empty()) list.arrows.push_back(std::move(bright));

  const double half = style.square_half_pixels * projector.pixel_size(depth);
  const glm::dvec3 r = half * projector.right(), u = half * projector.up();
  render::LineBatch square;
  square.strip = true;
  const bool lit = highlighted == GizmoHandle::ViewPlane;
  square.width_pixels = lit ? 3.5f : 2;
  square.colors = {gizmo_color(GizmoHandle::ViewPlane, lit)};
  for (const glm::dvec3& corner : {origin - r - u, origin + r - u, origin + r + u, origin - r + u, origin - r - u})
    square.points.push_back(fvec(corner));
  list.lines.push_back(std::move(square));
}

}  // namespace nudge::view
