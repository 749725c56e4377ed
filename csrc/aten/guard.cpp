// The device guard: PyTorch's way to read and switch the current vulkan device
// and stream. Each device has one stream (its compute queue); events are
// timeline values on it, and timing events also hold a GPU timestamp.
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "aten/context.h"

namespace torchvulkan {
namespace {

constexpr uint32_t kNoTimestamp = UINT32_MAX;

struct Event {
  uint64_t value = 0;
  c10::DeviceIndex device = -1;
  uint32_t timestamp = kNoTimestamp;  // slot on the device's stream
};

class GuardImpl final : public c10::impl::DeviceGuardImplInterface {
 public:
  c10::DeviceType type() const override { return c10::DeviceType::PrivateUse1; }

  c10::Device exchangeDevice(c10::Device d) const override {
    c10::Device old = getDevice();
    if (d.index() != old.index()) setDevice(d);
    return old;
  }
  c10::Device getDevice() const override {
    return {c10::DeviceType::PrivateUse1, current_device()};
  }
  void setDevice(c10::Device d) const override {
    if (d.index() >= 0) set_current_device(d.index());
  }
  void uncheckedSetDevice(c10::Device d) const noexcept override {
    try {
      setDevice(d);
    } catch (...) {
    }
  }
  c10::Stream getStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream getDefaultStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const override {
    return c10::Stream(c10::Stream::DEFAULT, s.device());
  }
  c10::DeviceIndex deviceCount() const noexcept override {
    return static_cast<c10::DeviceIndex>(rt::Runtime::get().device_count());
  }

  void record(void** event, const c10::Stream& stream, const c10::DeviceIndex device_index,
              const c10::EventFlag flag) const override {
    auto* e = static_cast<Event*>(*event);
    if (!e) *event = e = new Event();
    release(*e);
    e->device = stream.device_index() >= 0 ? stream.device_index() : current_device();
    rt::Stream& s = device(e->device).stream();
    if (flag == c10::EventFlag::BACKEND_DEFAULT) {
      e->timestamp = s.timestamp(&e->value);
    } else {
      e->value = s.last_value();
    }
  }
  double elapsedTime(void* start, void* end, const c10::DeviceIndex) const override {
    auto* a = static_cast<Event*>(start);
    auto* b = static_cast<Event*>(end);
    TORCH_CHECK(a && b && a->timestamp != kNoTimestamp && b->timestamp != kNoTimestamp,
                "torchvulkan: elapsed_time needs two events recorded with enable_timing=True");
    TORCH_CHECK(a->device == b->device, "torchvulkan: elapsed_time of events on different devices");
    rt::Stream& s = device(a->device).stream();
    return (s.timestamp_ns(b->timestamp) - s.timestamp_ns(a->timestamp)) / 1e6;
  }
  // Work on the one stream is already ordered after every recorded event.
  void block(void*, const c10::Stream&) const override {}
  bool queryEvent(void* event) const override {
    auto* e = static_cast<Event*>(event);
    return !e || device(e->device).stream().query(e->value);
  }
  void destroyEvent(void* event, const c10::DeviceIndex) const noexcept override {
    auto* e = static_cast<Event*>(event);
    if (!e) return;
    try {
      release(*e);
    } catch (...) {
    }
    delete e;
  }
  void synchronizeEvent(void* event) const override {
    if (auto* e = static_cast<Event*>(event)) {
      device(e->device).stream().wait(e->value);
      raise_faults(device(e->device));
    }
  }
  bool queryStream(const c10::Stream& stream) const override {
    rt::Stream& s = device(stream.device_index()).stream();
    return s.query(s.last_value());
  }
  void synchronizeStream(const c10::Stream& stream) const override {
    device(stream.device_index()).stream().synchronize();
    raise_faults(device(stream.device_index()));
  }
  void synchronizeDevice(const c10::DeviceIndex index) const override {
    device(index).synchronize();
    raise_faults(device(index));
  }
  void recordDataPtrOnStream(const c10::DataPtr&, const c10::Stream&) const override {}

 private:
  static void release(Event& e) {
    if (e.timestamp == kNoTimestamp) return;
    device(e.device).stream().release_timestamp(e.timestamp, e.value);
    e.timestamp = kNoTimestamp;
  }
};

}  // namespace

C10_REGISTER_GUARD_IMPL(PrivateUse1, GuardImpl);

}  // namespace torchvulkan
