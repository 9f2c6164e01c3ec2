// Body shape names and their mass properties.
#include <numbers>

#include "nudge/bodies.h"

namespace nudge {

namespace {
constexpr std::string_view kShapeNames[] = {"sphere", "box", "capsule"};
}  // namespace

std::string_view body_shape_name(BodyShape shape) { return kShapeNames[static_cast<int>(shape)]; }

std::optional<BodyShape> body_shape_from_name(std::string_view name) {
  for (int i = 0; i < 3; ++i)
    if (kShapeNames[i] == name) return static_cast<BodyShape>(i);
  return std::nullopt;
}

UnitMassProperties unit_mass_properties(const RigidBody& body) {
  constexpr double pi = std::numbers::pi;
  UnitMassProperties p;
  switch (body.shape) {
    case BodyShape::Sphere: {
      const double r = body.radius;
      p.volume = 4.0 / 3.0 * pi * r * r * r;
      p.moments[0] = p.moments[1] = p.moments[2] = 0.4 * p.volume * r * r;
      break;
    }
    case BodyShape::Box: {
      const double x = body.half_extents[0], y = body.half_extents[1], z = body.half_extents[2];
      p.volume = 8 * x * y * z;
      p.moments[0] = p.volume / 3 * (y * y + z * z);
      p.moments[1] = p.volume / 3 * (x * x + z * z);
      p.moments[2] = p.volume / 3 * (x * x + y * y);
      break;
    }
    case BodyShape::Capsule: {
      // A cylinder of height H = 2h along y and two hemispheres (together a sphere),
      // each hemisphere's centre of mass 3r/8 from the cylinder's end.
      const double r = body.radius, h = body.half_length, height = 2 * h;
      const double cylinder = pi * r * r * height, sphere = 4.0 / 3.0 * pi * r * r * r;
      p.volume = cylinder + sphere;
      p.moments[1] = cylinder * r * r / 2 + sphere * 0.4 * r * r;
      p.moments[0] = p.moments[2] = cylinder * (height * height / 12 + r * r / 4) +
                                    sphere * (0.4 * r * r + height * height / 4 + 3 * height * r / 8);
      break;
    }
  }
  return p;
}

}  // namespace nudge
