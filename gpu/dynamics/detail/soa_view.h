#pragma once
// Three (or four) device arrays read and written as one Vec3 (Quat): the structure-of-arrays
// layout the kernels stream through, without spelling out x, y, z at every use. Only .cu files
// include this header.

#include <vector>

#include <thrust/device_vector.h>

#include "math/host_device.h"
#include "math/vec3.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {

template <class T>
T* raw(thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}
template <class T>
const T* raw(const thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}

struct Vec3View {
  real *x, *y, *z;
  TRACKCOSIM_HD Vec3 get(std::size_t i) const { return {x[i], y[i], z[i]}; }
  TRACKCOSIM_HD void set(std::size_t i, Vec3 v) const {
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
  }
};

struct QuatView {
  real *w, *x, *y, *z;
  TRACKCOSIM_HD Quat get(std::size_t i) const { return {w[i], x[i], y[i], z[i]}; }
  TRACKCOSIM_HD void set(std::size_t i, Quat q) const {
    w[i] = q.w;
    x[i] = q.x;
    y[i] = q.y;
    z[i] = q.z;
  }
};

struct DeviceVec3 {
  thrust::device_vector<real> x, y, z;
  void resize(std::size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
  }
  void assign(const std::vector<real>& hx, const std::vector<real>& hy, const std::vector<real>& hz) {
    upload(x, hx);
    upload(y, hy);
    upload(z, hz);
  }
  void fill(real value) {
    thrust::fill(par(), x.begin(), x.end(), value);
    thrust::fill(par(), y.begin(), y.end(), value);
    thrust::fill(par(), z.begin(), z.end(), value);
  }
  Vec3View view() { return {raw(x), raw(y), raw(z)}; }
  Vec3View view() const { return {const_cast<real*>(raw(x)), const_cast<real*>(raw(y)), const_cast<real*>(raw(z))}; }
  /// One element to or from the host (a copy per component on a GPU: for single bodies only).
  Vec3 at(std::size_t i) const { return {read_element(x, i), read_element(y, i), read_element(z, i)}; }
  void put(std::size_t i, Vec3 v) {
    write_element(x, i, v.x);
    write_element(y, i, v.y);
    write_element(z, i, v.z);
  }
};

struct DeviceQuat {
  thrust::device_vector<real> w, x, y, z;
  QuatView view() { return {raw(w), raw(x), raw(y), raw(z)}; }
  Quat at(std::size_t i) const { return {read_element(w, i), read_element(x, i), read_element(y, i), read_element(z, i)}; }
  void put(std::size_t i, Quat q) {
    write_element(w, i, q.w);
    write_element(x, i, q.x);
    write_element(y, i, q.y);
    write_element(z, i, q.z);
  }
};

}  // namespace trackcosim::gpu::detail
