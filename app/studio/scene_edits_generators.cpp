// Generators that append whole structures of particles and springs: chains, cloth
// sheets, soft lattices and walker robots (scene_edits.h).
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

std::optional<Error> check_material(std::string_view action, const Material& m) {
  if (!(std::isfinite(m.particle_mass) && m.particle_mass > 0))
    return fail(action, "found particle mass " + number_text(m.particle_mass) + "; expected a mass > 0 (kg)");
  if (!(std::isfinite(m.stiffness) && m.stiffness >= 0))
    return fail(action, "found stiffness " + number_text(m.stiffness) + "; expected a stiffness >= 0 (N/m)");
  if (!(std::isfinite(m.damping) && m.damping >= 0))
    return fail(action, "found damping " + number_text(m.damping) + "; expected a damping >= 0 (N s/m)");
  return std::nullopt;
}

// "found nu = 1; expected at least 2 particles along u"
std::optional<Error> check_count(std::string_view action, std::string_view name, int count, int least,
                                 std::string_view what) {
  if (count >= least) return std::nullopt;
  return fail(action, "found " + std::string(name) + " = " + std::to_string(count) + "; expected at least " +
                          std::to_string(least) + " " + std::string(what));
}

std::optional<Error> check_size(std::string_view action, std::string_view what, double size) {
  if (std::isfinite(size) && size > 0) return std::nullopt;
  return fail(action, "found " + std::string(what) + " " + number_text(size) + "; expected a length > 0 (m)");
}

// The particle count, or an error when it is more than one generator should make.
std::optional<Error> check_total(std::string_view action, long long total, const std::string& shape) {
  if (total <= kMaxGeneratedParticles) return std::nullopt;
  return fail(action, "found " + shape + " = " + std::to_string(total) + " particles; expected at most " +
                          std::to_string(kMaxGeneratedParticles));
}

// Appends the particles and springs (indices relative to the first new particle) and
// pins the new particles listed.
// The scene with them appended, not yet finished (its springs passive).
Scene appended(const Scene& scene, const std::vector<Vec3>& positions, std::vector<std::pair<int, int>> springs,
               const std::vector<int>& pins, const Material& m) {
  Scene edited = scene;
  const int first = scene.particle_count();
  append_particles(edited, positions, m.particle_mass, shared_particle_radius(scene));
  for (auto& [a, b] : springs) a += first, b += first;
  append_springs(edited, springs, m.stiffness, m.damping);
  for (int i : pins) edited.pinned[size_t(first + i)] = 1;
  return edited;
}

Result<Scene> generate(const Scene& scene, std::string_view action, const std::vector<Vec3>& positions,
                       std::vector<std::pair<int, int>> springs, const std::vector<int>& pins, const Material& m) {
  return finish(appended(scene, positions, std::move(springs), pins, m), action);
}

}  // namespace

Result<Scene> add_chain(const Scene& scene, const Vec3& start, const Vec3& end, int links, const Material& material,
                        bool pin_first) {
  constexpr std::string_view action = "add chain";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_count(action, "links", links, 1, "link")) return *error;
  if (auto error = check_total(action, static_cast<long long>(links) + 1, std::to_string(links) + " links + 1"))
    return *error;
  if (!finite(start) || !finite(end))
    return fail(action,
                "found start " + vec3_text(start) + " and end " + vec3_text(end) + "; expected finite points (m)");
  if (start == end) return fail(action, "the start and the end are the same point; expected a chain of length > 0");
  if (auto error = check_material(action, material)) return *error;
  std::vector<Vec3> positions;
  std::vector<std::pair<int, int>> springs;
  for (int k = 0; k <= links; ++k) {
    const double f = double(k) / links;
    positions.push_back(
        {start[0] + f * (end[0] - start[0]), start[1] + f * (end[1] - start[1]), start[2] + f * (end[2] - start[2])});
    if (k > 0) springs.emplace_back(k - 1, k);
  }
  return generate(scene, action, positions, std::move(springs), pin_first ? std::vector<int>{0} : std::vector<int>{},
                  material);
}

Result<Scene> add_cloth(const Scene& scene, const Vec3& corner, double size_u, double size_v, int nu, int nv,
                        const Material& material, bool pin_top_row) {
  constexpr std::string_view action = "add cloth";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_count(action, "nu", nu, 2, "particles along u")) return *error;
  if (auto error = check_count(action, "nv", nv, 2, "particles along v")) return *error;
  if (auto error =
          check_total(action, static_cast<long long>(nu) * nv, std::to_string(nu) + " x " + std::to_string(nv)))
    return *error;
  if (!finite(corner)) return fail(action, "found corner " + vec3_text(corner) + "; expected a finite point (m)");
  if (auto error = check_size(action, "size_u", size_u)) return *error;
  if (auto error = check_size(action, "size_v", size_v)) return *error;
  if (auto error = check_material(action, material)) return *error;
  std::vector<Vec3> positions;
  std::vector<std::pair<int, int>> springs;
  const auto index = [&](int row, int col) { return row * nu + col; };
  for (int row = 0; row < nv; ++row)
    for (int col = 0; col < nu; ++col) {
      positions.push_back({corner[0] + size_u * col / (nu - 1), corner[1] + size_v * row / (nv - 1), corner[2]});
      if (col + 1 < nu) springs.emplace_back(index(row, col), index(row, col + 1));  // structural
      if (row + 1 < nv) springs.emplace_back(index(row, col), index(row + 1, col));
      if (col + 1 < nu && row + 1 < nv) {  // shear: both diagonals of the cell
        springs.emplace_back(index(row, col), index(row + 1, col + 1));
        springs.emplace_back(index(row, col + 1), index(row + 1, col));
      }
    }
  std::vector<int> pins;
  if (pin_top_row)
    for (int col = 0; col < nu; ++col) pins.push_back(index(nv - 1, col));
  return generate(scene, action, positions, std::move(springs), pins, material);
}

Result<Scene> add_lattice(const Scene& scene, const Vec3& corner, const Vec3& size, int nx, int ny, int nz,
                          const Material& material) {
  constexpr std::string_view action = "add lattice";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_count(action, "nx", nx, 2, "particles along x")) return *error;
  if (auto error = check_count(action, "ny", ny, 2, "particles along y")) return *error;
  if (auto error = check_count(action, "nz", nz, 2, "particles along z")) return *error;
  if (auto error = check_total(action, static_cast<long long>(nx) * ny * nz,
                               std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz)))
    return *error;
  if (!finite(corner)) return fail(action, "found corner " + vec3_text(corner) + "; expected a finite point (m)");
  if (auto error = check_size(action, "size x", size[0])) return *error;
  if (auto error = check_size(action, "size y", size[1])) return *error;
  if (auto error = check_size(action, "size z", size[2])) return *error;
  if (auto error = check_material(action, material)) return *error;
  const int n[3] = {nx, ny, nz};
  const auto index = [&](int x, int y, int z) { return x + nx * (y + ny * z); };
  std::vector<Vec3> positions;
  std::vector<std::pair<int, int>> springs;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const int p[3] = {x, y, z};
        Vec3 position;
        for (int k = 0; k < 3; ++k) position[size_t(k)] = corner[size_t(k)] + size[size_t(k)] * p[k] / (n[k] - 1);
        positions.push_back(position);
        // Each pair once: the neighbours whose offset comes after zero in (dz, dy, dx) order.
        for (int dz = 0; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              if (dz == 0 && (dy < 0 || (dy == 0 && dx <= 0))) continue;
              const int q[3] = {x + dx, y + dy, z + dz};
              if (q[0] < 0 || q[0] >= nx || q[1] < 0 || q[1] >= ny || q[2] >= nz) continue;
              springs.emplace_back(index(x, y, z), index(q[0], q[1], q[2]));
            }
      }
  return generate(scene, action, positions, std::move(springs), {}, material);
}

Result<Scene> add_walker(const Scene& scene, const Vec3& corner, const WalkerShape& shape, const Material& material) {
  constexpr std::string_view action = "add walker";
  if (auto error = check_input(scene, action)) return *error;
  const int cols = shape.body_cols, rows = shape.body_rows, legs = shape.legs, leg_rows = shape.leg_rows;
  if (auto error = check_count(action, "body_cols", cols, 1, "body column")) return *error;
  if (auto error = check_count(action, "body_rows", rows, 1, "body row")) return *error;
  if (auto error = check_count(action, "legs", legs, 1, "leg")) return *error;
  if (auto error = check_count(action, "leg_rows", leg_rows, 1, "leg row")) return *error;
  const int most_legs = static_cast<int>((static_cast<long long>(cols) + 1) / 2);
  if (legs > most_legs)
    return fail(action, "found " + std::to_string(legs) + " legs under " + std::to_string(cols) +
                            " body columns; expected at most (body_cols + 1) / 2 = " + std::to_string(most_legs) +
                            " legs, a column apart at least");
  // Both terms < 2^62 (cols, rows < 2^31; legs <= 2^30), so the sum cannot overflow.
  const long long body_points = (static_cast<long long>(cols) + 1) * (static_cast<long long>(rows) + 1);
  const long long total = body_points + 2LL * legs * leg_rows;
  if (auto error = check_total(action, total,
                               std::to_string(cols) + " x " + std::to_string(rows) + " body cells on " +
                                   std::to_string(legs) + " legs of " + std::to_string(leg_rows) + " cells"))
    return *error;
  if (!finite(corner)) return fail(action, "found corner " + vec3_text(corner) + "; expected a finite point (m)");
  if (auto error = check_size(action, "cell size", shape.cell_size)) return *error;
  if (!std::isfinite(shape.actuation))
    return fail(action, "found actuation " + number_text(shape.actuation) + "; expected a finite actuation");
  if (auto error = check_material(action, material)) return *error;
  // Two new channels per leg (legs <= 2^30, so no overflow).
  const long long channels = static_cast<long long>(scene.channels) + 2LL * legs;
  if (channels > kMaxChannels)
    return fail(action, "found " + std::to_string(scene.channels) + " channels + " + std::to_string(2LL * legs) +
                            " new (two per leg); expected at most " + std::to_string(kMaxChannels) + " channels");
  if (channels * scene.settings.steps > kMaxControlValues)
    return fail(action, "found " + std::to_string(channels) + " channels (two new per leg) x " +
                            std::to_string(scene.settings.steps) + " steps; expected at most " +
                            std::to_string(kMaxControlValues) + " control values");

  const double h = shape.cell_size;
  // Leg i stands under body column leg_col[i] (its left side) and leg_col[i] + 1.
  std::vector<int> leg_col(static_cast<size_t>(legs));
  for (int leg = 0; leg < legs; ++leg)
    leg_col[size_t(leg)] =
        legs == 1 ? (cols - 1) / 2 : static_cast<int>((2LL * leg * (cols - 1) + (legs - 1)) / (2LL * (legs - 1)));
  // The points in rows from the bottom, each left to right, as scenes/walker.json's: the
  // leg rows hold two points per leg, the body rows all cols + 1.
  const int leg_points = 2 * legs * leg_rows;
  const auto body = [&](int row, int col) { return leg_points + row * (cols + 1) + col; };  // body row
  // Leg `leg`'s point on `side` (0 left, 1 right) in grid row k (k = leg_rows: the body's bottom row).
  const auto leg_point = [&](int leg, int k, int side) {
    return k == leg_rows ? body(0, leg_col[size_t(leg)] + side) : k * 2 * legs + 2 * leg + side;
  };
  std::vector<Vec3> positions;
  for (int k = 0; k < leg_rows; ++k)
    for (int leg = 0; leg < legs; ++leg)
      for (int side = 0; side < 2; ++side)
        positions.push_back({corner[0] + h * (leg_col[size_t(leg)] + side), corner[1] + h * k, corner[2]});
  for (int row = 0; row <= rows; ++row)
    for (int col = 0; col <= cols; ++col)
      positions.push_back({corner[0] + h * col, corner[1] + h * (leg_rows + row), corner[2]});
  // The springs cell by cell, as walker.json's: each leg's cells from the foot up, then
  // the body's cells row by row from the bottom, each left to right; a cell's bottom,
  // top, left and right edges (those not already there) and its two diagonals.
  std::vector<std::pair<int, int>> springs;
  std::vector<std::pair<int, int>> muscles;                 // (index into springs, its channel - scene.channels)
  std::vector<char> leg_top(static_cast<size_t>(cols), 0);  // body columns whose bottom edge is a leg's top
  for (int leg = 0; leg < legs; ++leg) {
    leg_top[size_t(leg_col[size_t(leg)])] = 1;
    for (int k = 0; k < leg_rows; ++k) {
      const int bl = leg_point(leg, k, 0), br = leg_point(leg, k, 1);
      const int tl = leg_point(leg, k + 1, 0), tr = leg_point(leg, k + 1, 1);
      if (k == 0) springs.emplace_back(bl, br);
      springs.emplace_back(tl, tr);
      muscles.emplace_back(static_cast<int>(springs.size()), 2 * leg);  // the left side
      springs.emplace_back(bl, tl);
      muscles.emplace_back(static_cast<int>(springs.size()), 2 * leg + 1);  // the right side
      springs.emplace_back(br, tr);
      springs.emplace_back(bl, tr);
      springs.emplace_back(br, tl);
    }
  }
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < cols; ++col) {
      const int bl = body(row, col), br = body(row, col + 1), tl = body(row + 1, col), tr = body(row + 1, col + 1);
      if (row == 0 && !leg_top[size_t(col)]) springs.emplace_back(bl, br);
      springs.emplace_back(tl, tr);
      if (col == 0) springs.emplace_back(bl, tl);
      springs.emplace_back(br, tr);
      springs.emplace_back(bl, tr);
      springs.emplace_back(br, tl);
    }
  const int first_spring = scene.spring_count();
  Scene edited = appended(scene, positions, std::move(springs), {}, material);
  append_columns(edited.params[ParamId::Controls], scene.settings.steps, static_cast<int>(2LL * legs));
  edited.channels = static_cast<int>(channels);
  for (const auto& [spring, channel] : muscles) {
    const size_t s = size_t(first_spring + spring);
    edited.spring_channel[s] = scene.channels + channel;
    edited.actuation[s] = shape.actuation;
  }
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
