// A body's state read from and written to a state slot (kernels/state.h), and the
// world as a body that never moves.
#pragma once

#include "families/bodies/body_step.h"
#include "kernels/state.h"

namespace nudge {

template <class T>
NUDGE_HD BodyState<T> load_body(StateView<const T> s, int b, int count) {
  return {load3(s.body_x, b, count),
          {s.body_q[b], s.body_q[count + b], s.body_q[2 * count + b], s.body_q[3 * count + b]},
          load3(s.body_v, b, count),
          load3(s.body_w, b, count)};
}

template <class T>
NUDGE_HD void store_body(StateView<T> s, int b, int count, const BodyState<T>& body) {
  store3(s.body_x, b, count, body.x);
  s.body_q[b] = body.q.x, s.body_q[count + b] = body.q.y, s.body_q[2 * count + b] = body.q.z;
  s.body_q[3 * count + b] = body.q.w;
  store3(s.body_v, b, count, body.v);
  store3(s.body_w, b, count, body.w);
}

// The world as the parent of a joint: at rest at the origin, unturned.
template <class T>
NUDGE_HD BodyState<T> world_body() {
  return {{0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0}};
}

}  // namespace nudge
