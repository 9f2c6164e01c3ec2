// The CUDA backend of Rollout: device memory, one stream, and a thread per index for
// each kernel functor (the same host-device code the CPU backend runs).
//
// Every CUDA call is checked. A failure throws CudaError; the simulator turns it into
// an Error while it is being created (no memory, no usable device) and into an abort
// afterwards, when a failure means a driver or programmer error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nudge {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws CudaError naming the call, the source line and CUDA's explanation.
inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so that later launch checks do not report it again
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call +
                  " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

#define NUDGE_CUDA_CHECK(call) ::nudge::cuda_check((call), #call, __FILE__, __LINE__)

// An owned device allocation of n elements of U; movable, not copyable.
template <class U>
class DeviceArray {
public:
  DeviceArray() = default;
  explicit DeviceArray(size_t n) {
    if (n == 0) return;
    void* allocation = nullptr;
    if (const cudaError_t status = cudaMalloc(&allocation, n * sizeof(U)); status != cudaSuccess)
      cuda_check(status, ("cudaMalloc of " + std::to_string(n * sizeof(U)) + " bytes").c_str(), __FILE__, __LINE__);
    data_ = static_cast<U*>(allocation);
    n_ = n;
  }
  DeviceArray(DeviceArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { release(); }

  U* data() { return data_; }
  const U* data() const { return data_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(U); }

private:
  // Not checked: a destructor must not throw, and at process exit the runtime may already
  // be gone (cudaErrorCudartUnloading), when there is nothing left to free anyway.
  void release() {
    if (data_) static_cast<void>(cudaFree(data_));
    data_ = nullptr;
    n_ = 0;
  }

  U* data_ = nullptr;
  size_t n_ = 0;
};

// An owned CUDA stream; movable, not copyable.
class CudaStream {
public:
  CudaStream() { NUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  CudaStream(CudaStream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  CudaStream& operator=(CudaStream&& o) noexcept {
    if (this != &o) {
      release();
      stream_ = std::exchange(o.stream_, nullptr);
    }
    return *this;
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  ~CudaStream() { release(); }

  cudaStream_t get() const { return stream_; }

private:
  void release() {
    if (stream_) static_cast<void>(cudaStreamDestroy(stream_));  // not checked: see DeviceArray
    stream_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
};

inline constexpr int kThreadsPerBlock = 256;

// Thread i of the grid runs f(i).
template <class F>
__global__ void for_each_kernel(F f, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(static_cast<int>(i));
}

// Lowers *first to the smallest index of a NaN or Inf in values[0, n). A thread stops at
// its first bad index: later ones in its stride are larger.
template <class U>
__global__ void first_non_finite_kernel(const U* values, size_t n, unsigned long long* first) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    if (!isfinite(values[i])) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;
    }
}

// Work is queued on one stream in order; calls that hand data to the host wait for it.
// Copies from the host wait too, so the host vector may be a temporary.
class CudaExec {
public:
  template <class U>
  using Array = DeviceArray<U>;

  // No `spring_runs` (kernels/span_kernels.h): a thread per particle gathering through
  // the incidence list suits the GPU; the CPU's runs of springs (spring_layout.h) would
  // only serialise that work.
  CudaExec() : first_bad_(1) {}

  template <class U>
  U* data(DeviceArray<U>& a) const {
    return a.data();
  }
  template <class U>
  const U* data(const DeviceArray<U>& a) const {
    return a.data();
  }

  // Contents do not survive a change of size.
  template <class U>
  void resize(DeviceArray<U>& a, size_t n) const {
    if (a.size() != n) {
      a = DeviceArray<U>();  // free first, so the old and new allocations never coexist
      a = DeviceArray<U>(n);
    }
  }

  template <class U>
  void zero(DeviceArray<U>& a) const {
    if (a.size() > 0) NUDGE_CUDA_CHECK(cudaMemsetAsync(a.data(), 0, a.bytes(), stream()));
  }

  template <class U>
  void upload(DeviceArray<U>& a, const std::vector<U>& host) const {
    resize(a, host.size());
    upload_to(a.data(), host);
  }

  template <class U>
  void upload_to(U* dst, const std::vector<U>& host) const {
    if (host.empty()) return;
    NUDGE_CUDA_CHECK(cudaMemcpyAsync(dst, host.data(), host.size() * sizeof(U), cudaMemcpyHostToDevice, stream()));
    synchronize();
  }

  template <class U>
  void download(const U* src, size_t n, U* host) const {
    if (n == 0) return;
    NUDGE_CUDA_CHECK(cudaMemcpyAsync(host, src, n * sizeof(U), cudaMemcpyDeviceToHost, stream()));
    synchronize();
  }

  template <class U>
  void copy(U* dst, const U* src, size_t n) const {
    if (n == 0) return;
    NUDGE_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(U), cudaMemcpyDeviceToDevice, stream()));
  }

  // A host copy of device data, valid until `scratch` is next used.
  template <class U>
  const U* host_view(const U* p, size_t n, std::vector<U>& scratch) const {
    scratch.resize(n);
    download(p, n, scratch.data());
    return scratch.data();
  }

  // Runs f on a host copy of a[0, n), then writes the copy back.
  template <class U, class F>
  void host_modify(U* a, size_t n, std::vector<U>& scratch, const F& f) const {
    scratch.resize(n);
    download(a, n, scratch.data());
    f(scratch.data());
    upload_to(a, scratch);
  }

  // The smallest index of a NaN or Inf in p[0, n), or -1.
  template <class U>
  long first_non_finite(const U* p, size_t n) const {
    if (n == 0) return -1;
    NUDGE_CUDA_CHECK(cudaMemsetAsync(first_bad_.data(), 0xFF, sizeof(unsigned long long), stream()));  // "none"
    const size_t blocks_needed = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    const unsigned blocks = static_cast<unsigned>(blocks_needed < 1024 ? blocks_needed : 1024);
    first_non_finite_kernel<U><<<blocks, kThreadsPerBlock, 0, stream()>>>(p, n, first_bad_.data());
    NUDGE_CUDA_CHECK(cudaGetLastError());
    unsigned long long first = 0;
    download(static_cast<const unsigned long long*>(first_bad_.data()), 1, &first);
    return first < n ? static_cast<long>(first) : -1;
  }

  template <class F>
  void launch(int n, const F& kernel) const {
    if (n <= 0) return;
    const unsigned blocks =
        static_cast<unsigned>((static_cast<long long>(n) + kThreadsPerBlock - 1) / kThreadsPerBlock);
    for_each_kernel<F><<<blocks, kThreadsPerBlock, 0, stream()>>>(kernel, n);
    NUDGE_CUDA_CHECK(cudaGetLastError());  // launch errors; faults inside the kernel surface at the next wait
  }

  void synchronize() const { NUDGE_CUDA_CHECK(cudaStreamSynchronize(stream())); }

private:
  cudaStream_t stream() const { return stream_.get(); }

  CudaStream stream_;
  // first_non_finite's result; written by the kernel, so mutable behind the const interface.
  mutable DeviceArray<unsigned long long> first_bad_;
};

}  // namespace nudge
