// The spring family's part of the model, and its gradient accumulators.
#pragma once

namespace nudge {

// A stretch of springs [first, first + count). For a run (a0 >= 0) spring first + t joins
// a0 + t and b0 + t; for loose springs (a0 < 0) the ends are read from the index arrays.
struct SpringSpan {
  int first = 0, count = 0, a0 = -1, b0 = -1;
  bool actuated = false;  // some spring of the span has an actuation channel
};

// Adds sign * value[spring + t] onto particle `particle + t` for t < count: how a run of
// springs reaches a block of particles on the CPU (families/springs/spring_layout.h).
struct IncidenceSegment {
  int particle = 0, spring = 0, count = 0, sign = 1;
};

template <class T>
struct SpringModel {
  int s = 0;                     // springs
  int channels = 0;              // actuation channels C
  const int* a = nullptr;        // s: first end
  const int* b = nullptr;        // s: second end
  const int* channel = nullptr;  // s, -1 for passive
  const T* stiffness = nullptr;  // s
  const T* damping = nullptr;    // s
  const T* rest = nullptr;       // s
  const T* actuation = nullptr;  // s, 0 for a passive spring
  T length_offset = 0;           // added to |x_b - x_a| (Scene::spring_length_offset)

  // Incidence, CSR by particle: springs touching particle i are
  // inc_spring[inc_start[i] .. inc_start[i+1]), with inc_sign +1 at end a, -1 at end b.
  const int* inc_start = nullptr;   // n + 1
  const int* inc_spring = nullptr;  // 2s
  const T* inc_sign = nullptr;      // 2s

  const T* controls = nullptr;  // steps x channels, at least one entry (padded with 0)

  // Where the particle pass finds this step's spring forces: 3 x s, each on its end a
  // (the span kernels' output), and on the CPU the blocks of particles they are summed in
  // (block_start: blocks + 1, CSR into segments).
  const T* force = nullptr;
  int blocks = 0;
  const int* block_start = nullptr;
  const IncidenceSegment* segments = nullptr;
};

template <class T>
struct SpringGrad {
  T* stiffness = nullptr;  // s
  T* damping = nullptr;    // s
  T* rest = nullptr;       // s
  T* controls = nullptr;   // steps x channels
};

}  // namespace nudge
