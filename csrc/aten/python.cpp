// The extension module torchvulkan._C: what the Python package needs from C++.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <torch/csrc/Generator.h>
#include <torch/csrc/utils/pybind.h>

#include <cstdio>

#include "aten/context.h"
#include "aten/fallback.h"
#include "aten/generator.h"
#include "aten/hooks.h"
#include "aten/ops/matmul/gemm.h"
#include "runtime/embedded_kernels.h"
#include "runtime/error.h"

namespace py = pybind11;
using namespace torchvulkan;

namespace {

py::dict properties(int index) {
  const rt::Capabilities& c = rt::Runtime::get().capabilities(index);
  py::dict d;
  d["name"] = c.name;
  d["device_type"] = c.device_type;
  d["vendor_id"] = c.vendor_id;
  d["device_id"] = c.device_id;
  d["driver_name"] = c.driver_name;
  d["driver_info"] = c.driver_info;
  d["api_version"] = std::to_string(VK_API_VERSION_MAJOR(c.api_version)) + "." +
                     std::to_string(VK_API_VERSION_MINOR(c.api_version)) + "." +
                     std::to_string(VK_API_VERSION_PATCH(c.api_version));
  d["driver_version"] = c.driver_version;
  py::list heaps;
  for (const auto& h : c.heaps)
    heaps.append(py::dict(py::arg("size") = h.size, py::arg("device_local") = h.device_local));
  d["memory_heaps"] = heaps;
  uint64_t total = 0;
  for (const auto& h : c.heaps) total = h.device_local ? std::max(total, h.size) : total;
  d["total_memory"] = total;
  d["subgroup_size"] = c.subgroup_size;
  d["max_shared_memory"] = c.max_shared_memory;
  d["max_workgroup_invocations"] = c.max_workgroup_invocations;
  d["max_workgroup_size"] =
      py::make_tuple(c.max_workgroup_size[0], c.max_workgroup_size[1], c.max_workgroup_size[2]);
  d["max_workgroup_count"] =
      py::make_tuple(c.max_workgroup_count[0], c.max_workgroup_count[1], c.max_workgroup_count[2]);
  d["max_push_constants"] = c.max_push_constants;
  d["max_allocation_size"] = c.max_allocation_size;
  d["float16"] = c.float16;
  d["bfloat16"] = c.bfloat16;
  d["float64"] = c.float64;
  d["int8"] = c.int8;
  d["int16"] = c.int16;
  d["int64"] = c.int64;
  d["storage_8bit"] = c.storage8;
  d["storage_16bit"] = c.storage16;
  d["int64_atomics"] = c.int64_atomics;
  d["push_descriptor"] = c.push_descriptor;
  d["cooperative_matrix"] = c.cooperative_matrix;
  d["cooperative_matrix2"] = c.cooperative_matrix2;
  py::list shapes;
  for (const auto& s : c.cooperative_matrix_shapes) {
    shapes.append(py::dict(py::arg("m") = s.m, py::arg("n") = s.n, py::arg("k") = s.k,
                           py::arg("a_type") = s.a_type, py::arg("c_type") = s.c_type,
                           py::arg("scope") = s.scope));
  }
  d["cooperative_matrix_shapes"] = shapes;
  return d;
}

py::dict stat_dict(const rt::StatArray& array) {
  py::dict out;
  const char* pools[] = {"all", "small_pool", "large_pool"};
  for (int i = 0; i < 3; ++i) {
    out[pools[i]] =
        py::dict(py::arg("current") = array[i].current, py::arg("peak") = array[i].peak,
                 py::arg("allocated") = array[i].allocated, py::arg("freed") = array[i].freed);
  }
  return out;
}

// Nested like torch._C._cuda_memoryStats; torchvulkan.memory flattens it.
py::dict memory_stats(int index) {
  rt::MemoryStats s = device(static_cast<c10::DeviceIndex>(index)).memory().stats();
  py::dict d;
  d["allocation"] = stat_dict(s.allocation);
  d["segment"] = stat_dict(s.segment);
  d["active"] = stat_dict(s.active);
  d["inactive_split"] = stat_dict(s.inactive_split);
  d["allocated_bytes"] = stat_dict(s.allocated_bytes);
  d["reserved_bytes"] = stat_dict(s.reserved_bytes);
  d["active_bytes"] = stat_dict(s.active_bytes);
  d["inactive_split_bytes"] = stat_dict(s.inactive_split_bytes);
  d["requested_bytes"] = stat_dict(s.requested_bytes);
  d["num_alloc_retries"] = s.num_alloc_retries;
  d["num_ooms"] = s.num_ooms;
  d["num_device_alloc"] = s.num_device_alloc;
  d["num_device_free"] = s.num_device_free;
  return d;
}

std::vector<rt::Device*> targets(int index) {
  if (index >= 0) return {&device(static_cast<c10::DeviceIndex>(index))};
  return rt::Runtime::get().opened();
}

}  // namespace

PYBIND11_MODULE(_C, m) {
  register_hooks();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const rt::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def("device_count", [] { return rt::Runtime::get().device_count(); });
  m.def("status", [] { return rt::Runtime::get().status(); });
  m.def("get_device_properties", &properties);
  m.def("current_device", [] { return static_cast<int>(current_device()); });
  m.def("set_device", [](int index) { set_current_device(static_cast<c10::DeviceIndex>(index)); });
  m.def("synchronize", [](int index) {
    auto devices = targets(index);
    {
      py::gil_scoped_release release;
      for (rt::Device* dev : devices) dev->synchronize();
    }
    for (rt::Device* dev : devices) {
      try {
        raise_faults(*dev);
      } catch (const c10::IndexError& e) {
        throw py::index_error(e.what_without_backtrace());
      }
    }
  });
  m.def("empty_cache", [] {
    py::gil_scoped_release release;
    for (rt::Device* dev : rt::Runtime::get().opened()) dev->empty_cache();
  });
  m.def("memory_stats", &memory_stats);
  m.def("reset_peak_memory_stats",
        [](int index) { device(static_cast<c10::DeviceIndex>(index)).memory().reset_peak(); });
  m.def("set_memory_fraction", [](double fraction, int index) {
    device(static_cast<c10::DeviceIndex>(index)).memory().set_fraction(fraction);
  });
  m.def("memory_fraction",
        [](int index) { return device(static_cast<c10::DeviceIndex>(index)).memory().fraction(); });
  m.def("reset_accumulated_memory_stats", [](int index) {
    device(static_cast<c10::DeviceIndex>(index)).memory().reset_accumulated();
  });
  m.def("host_memory_stats", [](int index) {
    rt::HostPool& host = device(static_cast<c10::DeviceIndex>(index)).host();
    return py::dict(py::arg("allocated_bytes") = host.allocated_bytes(),
                    py::arg("reserved_bytes") = host.reserved_bytes());
  });
  m.def("is_initialized", [] { return !rt::Runtime::get().opened().empty(); });
  m.def("default_generator", [](int index) {
    return py::reinterpret_steal<py::object>(
        THPGenerator_initDefaultGenerator(default_generator(static_cast<c10::DeviceIndex>(index))));
  });
  m.def("fallback_counts", &fallback_counts);
  m.def("gemm_tier_counts", &gemm_tier_counts);
  m.def("gemm_phase_stamps", &gemm_phase_stamps);
  m.def("reset_fallback_counts", &reset_fallback_counts);
  m.def("validation_enabled", [] { return rt::Runtime::get().validation_enabled(); });
  m.def("validation_messages", [] { return rt::Runtime::get().validation_messages(); });
  m.def("save_pipeline_cache", [] {
    for (rt::Device* dev : rt::Runtime::get().opened()) dev->pipelines().save_cache();
  });
  m.def("compiler_features", [] {
    std::vector<std::string> out;
    for (const char* const* f = rt::kCompilerFeatures; *f; ++f) out.emplace_back(*f);
    return out;
  });
  m.def("pipeline_statistics", [](const std::string& name, int index) {
    std::vector<py::dict> out;
    for (const rt::PipelineStatistic& s :
         device(static_cast<c10::DeviceIndex>(index)).pipelines().statistics(name)) {
      out.push_back(py::dict(py::arg("executable") = s.executable, py::arg("name") = s.name,
                             py::arg("value") = s.value));
    }
    return out;
  });
  m.def("preserved_float_widths", [](const std::string& name, int index) {
    return device(static_cast<c10::DeviceIndex>(index)).pipelines().preserved_widths(name);
  });
  m.def("native_half",
        [](int index) { return device(static_cast<c10::DeviceIndex>(index)).native_half(); });
  m.def("profile_kernels", [](bool on, int index) {
    device(static_cast<c10::DeviceIndex>(index)).stream().profile_kernels(on);
  });
  m.def("kernel_times", [](int index) {
    py::gil_scoped_release release;
    return device(static_cast<c10::DeviceIndex>(index)).stream().kernel_times();
  });
  m.def("in_bad_fork", &rt::Runtime::in_bad_fork);
  m.def("kernel_names", [] {
    std::vector<std::string> out;
    for (size_t i = 0; i < rt::kNumEmbeddedKernels; ++i)
      out.emplace_back(rt::kEmbeddedKernels[i].name);
    return out;
  });
}
