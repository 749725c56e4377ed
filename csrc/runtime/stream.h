#pragma once
// A stream records work into command buffers and submits them in batches to
// the device's compute queue without waiting: a batch ends after a number of
// commands, early once it touches many bytes while the queue is short, or as
// soon as the GPU and the submitting thread are both idle (stream.cpp says
// why). A batch that ends is handed to a thread of the stream's own that
// calls vkQueueSubmit, so the recording thread never pays for a submit. Each
// batch signals the next value of a timeline semaphore; the host waits on
// that value only when it must read results.
//
// Ordering: every command declares the byte ranges it reads and writes. A
// compute/transfer memory barrier is recorded before a command only when one
// of its ranges overlaps a range written (or, for a write, read) since the
// last barrier. Barriers order everything earlier on the queue, so this also
// holds across batches, and it is what makes reusing a freed block safe.
#include <volk.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/pipelines.h"

namespace torchvulkan::rt {

struct Access {
  uint64_t begin, end;  // byte addresses, end exclusive
  bool write;
};

class Stream {
 public:
  Stream(VkDevice device, VkQueue queue, uint32_t queue_family, uint32_t timestamp_bits,
         const Capabilities& caps, VkPipelineLayout layout, uint32_t arena_memory_type);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Records `invocations` invocations of `kernel`. When `params` is given it is
  // copied into device-visible memory owned by the batch, and its address is
  // stored in the first 8 bytes of the push constants. Returns the timeline
  // value that marks this command's completion.
  uint64_t dispatch(const Kernel& kernel, void* push, uint32_t push_bytes, const void* params,
                    uint32_t params_bytes, uint64_t invocations, std::span<const Access> accesses);
  uint64_t copy(VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                uint64_t bytes, Access read, Access write);
  // Writes host bytes inline in the command buffer: at most 65536 bytes, a multiple of 4.
  uint64_t update(VkBuffer dst, uint64_t offset, const void* data, uint64_t bytes, Access write);

  // Records a GPU timestamp, written once every command recorded before it
  // has finished. Returns its slot; `*value` gets the timeline value after
  // which it can be read. Throws if the queue has no timestamps.
  uint32_t timestamp(uint64_t* value);
  // The timestamp in nanoseconds on the device's clock; its value must have completed.
  double timestamp_ns(uint32_t slot);
  // Gives the slot back once the command that last wrote it has completed.
  void release_timestamp(uint32_t slot, uint64_t value);

  // Per-kernel GPU time, for benchmark/kernel_times.py: while on, every
  // dispatch waits for the commands before it (a full barrier) and is
  // bracketed by two timestamps, so each figure is one kernel's time alone.
  void profile_kernels(bool on);
  // (kernel name, nanoseconds) of each dispatch timed since the last call;
  // waits for them.
  std::vector<std::pair<std::string, double>> kernel_times();

  void flush();                // submits what is recorded
  void wait(uint64_t value);   // submits if needed, then blocks until `value` completes
  void synchronize();          // waits for everything recorded so far
  uint64_t completed();        // last completed timeline value
  bool query(uint64_t value);  // true if `value` has completed
  uint64_t last_value();       // value of the most recently recorded command

 private:
  struct Batch {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    uint64_t value = 0;
    uint32_t recorded = 0;
    uint64_t bytes = 0;         // summed spans of the recorded commands
    std::vector<Buffer> arena;  // parameter blocks; the last one is being filled
    uint64_t arena_used = 0;
  };

  Batch& open();  // the batch being recorded (begun if needed)
  void order(Batch& batch, std::span<const Access> accesses);
  uint64_t push_params(Batch& batch, const void* data, uint32_t bytes);
  void after_record(Batch& batch, uint64_t bytes);
  void submit_locked();  // hands the current batch to the submitting thread
  void submit_loop();
  void recycle_locked(uint64_t done);
  void check_submitted();  // rethrows a failed submit
  void wait_locked(std::unique_lock<std::mutex>& lock, uint64_t value);
  uint32_t write_timestamp_locked(Batch& batch);

  VkDevice device_;
  VkQueue queue_;
  VkPipelineLayout layout_;
  uint32_t arena_memory_type_;
  std::array<uint32_t, 3> max_groups_;
  uint32_t batch_limit_;
  uint64_t eager_bytes_;            // a batch this big is submitted early (stream.cpp's kEagerMiB)
  std::chrono::microseconds spin_;  // polling before a blocking wait

  std::mutex mutex_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  uint64_t submitted_ = 0;  // highest value handed to the submitting thread

  // The submitting thread's state, under its own mutex (taken after mutex_
  // when both are held), so that it never waits for the recording thread.
  std::mutex submit_mutex_;
  std::condition_variable submit_ready_;
  // Batches handed over but not yet submitted: command buffer and value.
  std::deque<std::pair<VkCommandBuffer, uint64_t>> to_submit_;
  bool submitting_ = false;  // the thread is in vkQueueSubmit
  bool stop_ = false;
  VkResult submit_error_ = VK_SUCCESS;
  std::thread submitter_;
  Batch current_;  // commands == null when nothing is being recorded
  VkPipeline bound_ = VK_NULL_HANDLE;
  std::deque<Batch> in_flight_;
  std::vector<VkCommandBuffer> spare_commands_;
  std::vector<Buffer> spare_arena_;
  std::vector<Access> pending_reads_, pending_writes_;

  uint32_t timestamp_bits_;
  float timestamp_period_;  // nanoseconds per tick
  std::vector<VkQueryPool> query_pools_;
  std::deque<std::pair<uint32_t, uint64_t>> free_slots_;  // slot, value that must complete first
  struct Timed {
    std::string kernel;
    uint32_t begin, end;  // timestamp slots
    uint64_t value;
  };
  bool profiling_ = false;
  std::vector<Timed> timed_;
};

}  // namespace torchvulkan::rt
