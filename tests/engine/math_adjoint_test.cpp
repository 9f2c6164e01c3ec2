// The math primitives' adjoints (vec3.h, mat33.h, quat.h) against central finite
// differences in double: each function is made a scalar by dotting its output with
// random weights, and the adjoint of that scalar must match the difference of every
// input entry. Random inputs from a fixed seed, several draws each, non-unit
// quaternions where a function accepts them.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "nudge/gradcheck.h"
#include "nudge/quat.h"

using namespace nudge;

namespace {

using V = Vec3<double>;
using M = Mat33<double>;
using Q = Quat<double>;

std::mt19937_64 rng(7);
double uniform() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }
V random_vec() { return {uniform(), uniform(), uniform()}; }
Q random_quat() { return {uniform(), uniform(), uniform(), 1.5 + uniform()}; }  // away from 0
M random_mat() {
  M m;
  for (double& e : m.m) e = uniform();
  for (int k = 0; k < 3; ++k) m(k, k) += 2.5;  // well conditioned, invertible
  return m;
}

// Flat views of the inputs, so one finite-difference loop serves every type.
double* entries(V& v) { return &v.x; }
double* entries(Q& q) { return &q.x; }
double* entries(M& m) { return m.m; }
constexpr int count(const V&) { return 3; }
constexpr int count(const Q&) { return 4; }
constexpr int count(const M&) { return 9; }

double weigh(const V& w, V r) { return dot(w, r); }
double weigh(const Q& w, Q r) { return dot(w, r); }
double weigh(const M& w, const M& r) {
  double s = 0;
  for (int k = 0; k < 9; ++k) s += w.m[k] * r.m[k];
  return s;
}
double weigh(double w, double r) { return w * r; }

// Checks the adjoint of input `x` (adj_x, computed by the caller for output weights w)
// against central differences of phi = weigh(w, f(inputs)).
template <class X>
void check_input(const char* what, X& x, const X& adj_x, const std::function<double()>& phi) {
  X adj = adj_x;
  for (int k = 0; k < count(x); ++k) {
    double& e = entries(x)[k];
    const double saved = e, h = 1e-6;
    e = saved + h;
    const double up = phi();
    e = saved - h;
    const double down = phi();
    e = saved;
    const double fd = (up - down) / (2 * h), a = entries(adj)[k];
    INFO(what << "[" << k << "]: adjoint " << a << ", finite difference " << fd);
    CHECK(gradient_relative_error(a, fd, 1.0) <= 1e-8);
  }
}

constexpr int kDraws = 5;

}  // namespace

TEST_CASE("math: vector adjoints (dot, length, normalize, cross)") {
  for (int draw = 0; draw < kDraws; ++draw) {
    V a = random_vec(), b = random_vec();
    const V w = random_vec();
    const double ws = uniform();
    {
      V aa{0, 0, 0}, ab{0, 0, 0};
      adj_dot(a, b, ws, aa, ab);
      const auto phi = [&] { return weigh(ws, dot(a, b)); };
      check_input("dot a", a, aa, phi);
      check_input("dot b", b, ab, phi);
    }
    {
      V aa{0, 0, 0};
      adj_length(a, ws, aa);
      check_input("length", a, aa, [&] { return weigh(ws, length(a)); });
      V as{0, 0, 0};
      adj_length_squared(a, ws, as);
      check_input("length_squared", a, as, [&] { return weigh(ws, length_squared(a)); });
    }
    {
      V aa{0, 0, 0};
      adj_normalize(a, w, aa);
      check_input("normalize", a, aa, [&] { return weigh(w, normalize(a)); });
    }
    {
      V aa{0, 0, 0}, ab{0, 0, 0};
      adj_cross(a, b, w, aa, ab);
      const auto phi = [&] { return weigh(w, cross(a, b)); };
      check_input("cross a", a, aa, phi);
      check_input("cross b", b, ab, phi);
    }
  }
}

TEST_CASE("math: matrix adjoints (products, transpose, outer, skew, determinant, inverse)") {
  for (int draw = 0; draw < kDraws; ++draw) {
    M a = random_mat(), b = random_mat();
    V v = random_vec(), u = random_vec();
    const V wv = random_vec();
    const M wm = random_mat();
    const double ws = uniform();
    {
      M am = zero33<double>();
      V av{0, 0, 0};
      adj_mul(a, v, wv, am, av);
      const auto phi = [&] { return weigh(wv, a * v); };
      check_input("A v: A", a, am, phi);
      check_input("A v: v", v, av, phi);
    }
    {
      M am = zero33<double>();
      V av{0, 0, 0};
      adj_mul_transpose(a, v, wv, am, av);
      const auto phi = [&] { return weigh(wv, mul_transpose(a, v)); };
      check_input("A^T v: A", a, am, phi);
      check_input("A^T v: v", v, av, phi);
    }
    {
      M aa = zero33<double>(), ab = zero33<double>();
      adj_mul(a, b, wm, aa, ab);
      const auto phi = [&] { return weigh(wm, a * b); };
      check_input("A B: A", a, aa, phi);
      check_input("A B: B", b, ab, phi);
    }
    {
      M at = zero33<double>();
      adj_transpose(wm, at);
      check_input("transpose", a, at, [&] { return weigh(wm, transpose(a)); });
    }
    {
      V au{0, 0, 0}, av{0, 0, 0};
      adj_outer(u, v, wm, au, av);
      const auto phi = [&] { return weigh(wm, outer(u, v)); };
      check_input("outer a", u, au, phi);
      check_input("outer b", v, av, phi);
    }
    {
      V av{0, 0, 0};
      adj_skew(wm, av);
      check_input("skew", v, av, [&] { return weigh(wm, skew(v)); });
    }
    {
      M ad = zero33<double>();
      adj_determinant(a, ws, ad);
      check_input("determinant", a, ad, [&] { return weigh(ws, determinant(a)); });
    }
    {
      M ai = zero33<double>();
      adj_inverse(a, wm, ai);
      check_input("inverse", a, ai, [&] { return weigh(wm, inverse(a)); });
    }
  }
}

TEST_CASE("math: quaternion adjoints (product, normalize, rotate, to_matrix, integrate)") {
  for (int draw = 0; draw < kDraws; ++draw) {
    Q p = random_quat(), q = random_quat();
    V v = random_vec(), omega = 3.0 * random_vec();
    double dt = 0.01 + 0.02 * (uniform() + 1);
    const Q wq = random_quat();
    const V wv = random_vec();
    const M wm = random_mat();
    {
      Q ap{0, 0, 0, 0}, aq{0, 0, 0, 0};
      adj_mul(p, q, wq, ap, aq);
      const auto phi = [&] { return weigh(wq, p * q); };
      check_input("product p", p, ap, phi);
      check_input("product q", q, aq, phi);
    }
    {
      Q aq{0, 0, 0, 0};
      adj_normalize(q, wq, aq);
      check_input("normalize", q, aq, [&] { return weigh(wq, normalize(q)); });
    }
    // rotate, inverse_rotate and to_matrix are the formulas for a unit q, differentiated
    // as written: checked at any q.
    {
      Q aq{0, 0, 0, 0};
      V av{0, 0, 0};
      adj_rotate(q, v, wv, aq, av);
      const auto phi = [&] { return weigh(wv, rotate(q, v)); };
      check_input("rotate q", q, aq, phi);
      check_input("rotate v", v, av, phi);
    }
    {
      Q aq{0, 0, 0, 0};
      V av{0, 0, 0};
      adj_inverse_rotate(q, v, wv, aq, av);
      const auto phi = [&] { return weigh(wv, inverse_rotate(q, v)); };
      check_input("inverse_rotate q", q, aq, phi);
      check_input("inverse_rotate v", v, av, phi);
    }
    {
      Q aq{0, 0, 0, 0};
      adj_to_matrix(q, wm, aq);
      check_input("to_matrix", q, aq, [&] { return weigh(wm, to_matrix(q)); });
    }
    {
      Q aq{0, 0, 0, 0};
      V aw{0, 0, 0};
      adj_integrate(q, omega, dt, wq, aq, aw);
      const auto phi = [&] { return weigh(wq, integrate(q, omega, dt)); };
      check_input("integrate q", q, aq, phi);
      check_input("integrate omega", omega, aw, phi);
    }
  }
}

TEST_CASE("math: identities the rigid-body code relies on") {
  for (int draw = 0; draw < kDraws; ++draw) {
    const Q q = normalize(random_quat());
    const V v = random_vec(), u = random_vec();
    const V back = inverse_rotate(q, rotate(q, v));
    CHECK(length(back - v) < 1e-14);
    CHECK(length(to_matrix(q) * v - rotate(q, v)) < 1e-14);
    CHECK(length(rotate(q * q, v) - rotate(q, rotate(q, v))) < 1e-13);  // products compose rotations
    CHECK(std::fabs(length(rotate(q, v)) - length(v)) < 1e-14);
    CHECK(length(cross(u, v) + cross(v, u)) == 0.0);
    CHECK(length(skew(u) * v - cross(u, v)) < 1e-15);
    const M a = random_mat(), i = a * inverse(a);
    for (int k = 0; k < 9; ++k) CHECK(std::fabs(i.m[k] - identity33<double>().m[k]) < 1e-14);
    CHECK(std::fabs(length(integrate(q, 5.0 * v, 0.01)) - 1) < 1e-15);
    // A small step of integrate turns a vector by about omega x v dt.
    const V omega = random_vec();
    const double dt = 1e-6;
    const V turned = rotate(integrate(quat_identity<double>(), omega, dt), v);
    CHECK(length((turned - v) * (1 / dt) - cross(omega, v)) < 1e-5);
    const Q about_z = quat_from_axis_angle(V{0, 0, 1}, std::acos(-1.0) / 2);
    CHECK(length(rotate(about_z, V{1, 0, 0}) - V{0, 1, 0}) < 1e-15);
  }
}
