// A link's size as a design changes it: link_scale s (every way) and link_length l (along
// the link's length_axis u), both about its joint's anchor c. A point x of the link's
// frame goes to c + A (x - c), with A = s (1 + (l - 1) u u^T). At one density the mass
// grows by det A = s^3 l, and the second moment about the centre of mass,
// S = tr(I)/2 - I, becomes det(A) A S A^T (the inertia: tr(S') - S'). Radii grow by s
// only: a stretch lengthens a limb, it does not thicken it. At s = l = 1 every quantity
// keeps its own bits (c + (x - c) need not round back to x), and at l = 1 each keeps the
// bits that link_scale alone gives.
#pragma once

#include <cmath>

#include "nudge/articulations.h"
#include "nudge/mat33.h"

namespace nudge {

struct LinkResize {
  Vec3<double> centre{0, 0, 0};  // the joint's anchor, in the link's frame
  Vec3<double> axis{0, 0, 0};    // length_axis, unit (zero: the link has none)
  double scale = 1, length = 1;

  bool stretched() const { return length != 1.0; }
  bool identity() const { return scale == 1.0 && length == 1.0; }

  // d + (l - 1) u (u . d): the stretch alone, d itself at l = 1.
  Vec3<double> stretch(Vec3<double> d) const { return stretched() ? d + ((length - 1) * dot(axis, d)) * axis : d; }
  Vec3<double> linear(Vec3<double> d) const { return scale * stretch(d); }  // A d
  Vec3<double> point(Vec3<double> x) const { return identity() ? x : centre + linear(x - centre); }
  Mat33<double> matrix() const { return scale * (identity33<double>() + (length - 1) * outer(axis, axis)); }
  double mass_factor() const { return scale * scale * scale * length; }

  // dL/dl of a point at d = x - c from the anchor, g = dL/d(point(x)).
  double length_grad(Vec3<double> d, Vec3<double> g) const { return scale * dot(g, axis) * dot(axis, d); }

  // g = dL/d(point(x)): adds dL/ds and dL/dl, and returns dL/dx = A^T g (A is symmetric).
  Vec3<double> add_point_grad(Vec3<double> x, Vec3<double> g, double& d_scale, double& d_length) const {
    const Vec3<double> d = x - centre;
    d_scale += dot(g, stretch(d));
    d_length += length_grad(d, g);
    return linear(g);
  }

  // An inertia about the centre of mass as link_inertia's six entries (xx, yy, zz, xy, xz,
  // yz), resized.
  void inertia(const double in[6], double out[6]) const {
    if (!stretched()) {  // s^5 I, entry by entry, as link_scale alone gives it
      const double s3 = scale * scale * scale;
      for (int c = 0; c < 6; ++c) out[c] = s3 * scale * scale * in[c];
      return;
    }
    const Mat33<double> a = matrix();
    const Mat33<double> moment = mass_factor() * (a * second_moment(full(in)) * transpose(a));
    entries(trace(moment) * identity33<double>() + (-1.0) * moment, out);
  }

  // g = dL/d(the six entries inertia() gives): adds dL/ds and dL/dl, and returns dL/d(in).
  void add_inertia_grad(const double in[6], const double g[6], double out[6], double& d_scale, double& d_length) const {
    const Mat33<double> a = matrix(), sigma = second_moment(full(in)), aat = a * sigma * transpose(a);
    // An off-diagonal entry fills two places of the matrix: half its gradient to each.
    const Mat33<double> g_full{{g[0], g[3] / 2, g[4] / 2, g[3] / 2, g[1], g[5] / 2, g[4] / 2, g[5] / 2, g[2]}};
    const Mat33<double> g_moment = trace(g_full) * identity33<double>() + (-1.0) * g_full;  // tr(S') - S'
    const Mat33<double> g_aat = mass_factor() * g_moment;
    double g_det = 0;
    for (int c = 0; c < 9; ++c) g_det += g_moment.m[c] * aat.m[c];
    const Mat33<double> g_a = g_aat * a * transpose(sigma) + transpose(g_aat) * a * sigma;
    const Mat33<double> along = outer(axis, axis);
    double dl = g_det * scale * scale * scale;
    for (int c = 0; c < 9; ++c) dl += g_a.m[c] * scale * along.m[c];
    d_length += dl;
    if (!stretched()) {  // s^5 I: as link_scale alone carries it
      const double s2 = scale * scale, s4 = s2 * s2;
      for (int c = 0; c < 6; ++c) {
        out[c] = s4 * scale * g[c];
        d_scale += 5 * s4 * in[c] * g[c];
      }
      return;
    }
    const Mat33<double> unscaled = identity33<double>() + (length - 1) * along;  // A / s
    double ds = g_det * 3 * scale * scale * length;
    for (int c = 0; c < 9; ++c) ds += g_a.m[c] * unscaled.m[c];
    d_scale += ds;
    const Mat33<double> g_sigma = transpose(a) * g_aat * a;
    entries((0.5 * trace(g_sigma)) * identity33<double>() + (-1.0) * g_sigma, out);  // tr(I)/2 - I
    for (int c = 3; c < 6; ++c) out[c] *= 2;  // each off-diagonal entry: both its places
  }

private:
  static double trace(const Mat33<double>& m) { return m.m[0] + m.m[4] + m.m[8]; }
  static Mat33<double> second_moment(const Mat33<double>& in) {
    return (0.5 * trace(in)) * identity33<double>() + (-1.0) * in;
  }
  static Mat33<double> full(const double e[6]) { return {{e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2]}}; }
  static void entries(const Mat33<double>& m, double e[6]) {
    e[0] = m.m[0], e[1] = m.m[4], e[2] = m.m[8], e[3] = m.m[1], e[4] = m.m[2], e[5] = m.m[5];
  }
};

// A link's resize at its link_scale and link_length.
inline LinkResize link_resize(const ArticulationLink& link, double scale, double length) {
  LinkResize r;
  r.centre = {link.anchor[0], link.anchor[1], link.anchor[2]};
  r.axis = {link.length_axis[0], link.length_axis[1], link.length_axis[2]};
  const double n = std::sqrt(dot(r.axis, r.axis));
  if (n > 0) r.axis = (1.0 / n) * r.axis;
  r.scale = scale;
  r.length = length;
  return r;
}

}  // namespace nudge
