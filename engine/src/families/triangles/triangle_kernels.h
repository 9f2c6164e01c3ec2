// The triangle family's launchable units (over triangles): Warp's cloth membrane with
// drag and lift (families/triangles/triangle_membrane.h) on each triangle, its forces and adjoints
// stored in its corners' slots (kernels/corner_model.h), so that no two threads write
// one address.
#pragma once

#include "kernels/corner_model.h"
#include "kernels/model.h"
#include "families/triangles/triangle_membrane.h"

namespace nudge {

template <class T>
NUDGE_HD TriangleRest<T> triangle_rest_at(const TriangleModel<T>& tm, int t) {
  const int c = tm.count;
  return TriangleRest<T>{{tm.pose[t], tm.pose[c + t], tm.pose[2 * c + t], tm.pose[3 * c + t]}, tm.area[t]};
}

template <class T>
NUDGE_HD TriangleMaterial<T> triangle_material_at(const TriangleModel<T>& tm, int t) {
  return TriangleMaterial<T>{tm.ke[t], tm.ka[t], tm.kd[t], tm.drag[t], tm.lift[t]};
}

template <class T>
struct TriangleForceKernel {  // over triangles
  ModelView<T> m;
  StateView<const T> state;
  CornerOut<T> force;
  NUDGE_HD void operator()(int t) const {
    const TriangleModel<T>& tm = m.triangles;
    const int tri = tm.count, n = m.particles.n;
    Vec3<T> x[3], v[3];
    for (int c = 0; c < 3; ++c) {
      const int i = tm.corner[c * tri + t];
      x[c] = load3(state.x, i, n);
      v[c] = load3(state.v, i, n);
    }
    const TriangleForces<T> f =
        triangle_forces(x[0], x[1], x[2], v[0], v[1], v[2], triangle_rest_at(tm, t), triangle_material_at(tm, t),
                        Vec3<T>{tm.wind[0], tm.wind[1], tm.wind[2]});
    for (int c = 0; c < 3; ++c) force.store(c, tri, t, f.f[c]);
  }
};

// From dL/dF per particle (adj_f) to each triangle's parameter gradients and its corners'
// dL/dx, dL/dv (in their slots, which the particles gather).
template <class T>
struct TriangleAdjointKernel {  // over triangles
  ModelView<T> m;
  StateView<const T> state;
  const T* adj_f;
  CornerOut<T> adj_x, adj_v;
  TriangleGrad<T> grad;
  NUDGE_HD void operator()(int t) const {
    const TriangleModel<T>& tm = m.triangles;
    const int tri = tm.count, n = m.particles.n;
    Vec3<T> x[3], v[3];
    TriangleForces<T> af;
    for (int c = 0; c < 3; ++c) {
      const int i = tm.corner[c * tri + t];
      x[c] = load3(state.x, i, n);
      v[c] = load3(state.v, i, n);
      af.f[c] = load3(adj_f, i, n);
    }
    const TriangleAdjoint<T> g =
        triangle_forces_adjoint(x[0], x[1], x[2], v[0], v[1], v[2], triangle_rest_at(tm, t),
                                triangle_material_at(tm, t), Vec3<T>{tm.wind[0], tm.wind[1], tm.wind[2]}, T(0), af);
    for (int c = 0; c < 3; ++c) {
      adj_x.store(c, tri, t, g.x[c]);
      adj_v.store(c, tri, t, g.v[c]);
    }
    grad.ke[t] += g.material.ke;
    grad.ka[t] += g.material.ka;
    grad.kd[t] += g.material.kd;
    grad.drag[t] += g.material.drag;
    grad.lift[t] += g.material.lift;
    add3(grad.wind, t, tri, g.wind);
  }
};

}  // namespace nudge
