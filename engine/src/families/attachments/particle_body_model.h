// How particles and rigid bodies meet, as kernels see it: every particle against every
// body's shape (contact, with the colliders' law and the particle's radius), and
// particles attached to a point of a body (a stiff spring, the joints' positional lock).
#pragma once

namespace nudge {

template <class T>
struct ParticleBodyModel {
  bool contact = false;                 // particles meet the bodies' shapes
  bool attachments = false;             // some particle is attached to a body
  const int* attach_body = nullptr;     // N: the body particle i is attached to, or -1
  const T* attach_offset = nullptr;     // 3 x N: where, in that body's frame
  const int* attached_start = nullptr;  // B + 1: body b's attached particles are
  const int* attached = nullptr;        //   attached[attached_start[b] .. attached_start[b + 1])
  T stiffness = 0, damping = 0;         // of an attachment (N/m, N s/m)
};

// The attachments' offsets' gradients, summed over steps (the particle's share).
template <class T>
struct ParticleBodyGrad {
  T* offset = nullptr;  // 3 x N
};

}  // namespace nudge
