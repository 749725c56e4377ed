#include "runtime/stream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "runtime/error.h"

namespace torchvulkan::rt {
namespace {

// A submit costs ~48 us on the H200 and ~130 us on lavapipe (ARCHITECTURE.md),
// so work goes to the queue in batches of this many commands. A batch also
// ends as soon as the GPU has nothing to do and the submitting thread is
// free: the MNIST step at h <= 1024 records its 55 ops in ~1 ms, and with
// 64-command batches the GPU started only at the step's synchronization.
// The thread's own time per submit sets how small those batches get.
constexpr uint32_t kDefaultBatch = 64;
// A batch whose commands span this many MiB (over 15 us of a 4.8 TB/s GPU,
// as long as a submit costs the host) is also submitted early when fewer than
// kEagerQueue batches are in flight, so the GPU starts (or has its next batch
// queued) while the host records more. Not whenever a batch is that big:
// each batch boundary idles the H200 for ~9 us (a 256 MiB add ran at 0.89 of
// CUDA's bandwidth by GPU timestamps when every such op was its own batch,
// 0.98 with this rule).
// TORCHVULKAN_EAGER_MIB sets it (0: any batch, whenever fewer than
// kEagerQueue are in flight), for measuring the rule: on an H100
// (2026-12-07) the MNIST forward + backward at h = 131072 took 964 us by the
// host's clock for 790 us of kernels, the GPU idle between batches or
// waiting on the host.
constexpr uint64_t kEagerMiB = 64;
constexpr size_t kEagerQueue = 2;
// Batches in flight before the host waits for the oldest.
constexpr size_t kMaxInFlight = 16;
constexpr uint64_t kArenaChunk = 256 << 10;
// Hazard lists longer than this are cut short with a barrier.
constexpr size_t kMaxPending = 256;
constexpr uint32_t kQueriesPerPool = 64;
// A waiting host polls the timeline this long before it blocks, as CUDA's
// default schedule spins: NVIDIA's blocking wait wakes 50-300 us after the
// GPU is done (10 dependent 384 MiB adds took 1062-1106 us of wall time for
// 984 us of GPU time with a 200 us poll, 1010 us with a long one). Not on CPU
// drivers, where the polling thread would take a core from the driver's own
// workers.
constexpr int64_t kDefaultSpinMicroseconds = 20000;

bool overlaps(const Access& a, const Access& b) {
  return a.begin < b.end && b.begin < a.end;
}

}  // namespace

Stream::Stream(VkDevice device, VkQueue queue, uint32_t queue_family, uint32_t timestamp_bits,
               const Capabilities& caps, VkPipelineLayout layout, uint32_t arena_memory_type)
    : device_(device),
      queue_(queue),
      layout_(layout),
      arena_memory_type_(arena_memory_type),
      max_groups_(caps.max_workgroup_count),
      timestamp_bits_(timestamp_bits),
      timestamp_period_(caps.timestamp_period) {
  const char* env = std::getenv("TORCHVULKAN_BATCH");
  batch_limit_ = env && std::atoi(env) > 0 ? static_cast<uint32_t>(std::atoi(env)) : kDefaultBatch;
  const char* eager = std::getenv("TORCHVULKAN_EAGER_MIB");
  eager_bytes_ =
      (eager && std::atoi(eager) >= 0 ? static_cast<uint64_t>(std::atoi(eager)) : kEagerMiB) << 20;
  const char* spin = std::getenv("TORCHVULKAN_SPIN_US");
  spin_ = std::chrono::microseconds(spin                        ? std::max(0, std::atoi(spin))
                                    : caps.device_type == "cpu" ? 0
                                                                : kDefaultSpinMicroseconds);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family;
  check(vkCreateCommandPool(device_, &pool_info, nullptr, &pool_), "vkCreateCommandPool");

  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  check(vkCreateSemaphore(device_, &info, nullptr, &timeline_), "vkCreateSemaphore");
  submitter_ = std::thread([this] { submit_loop(); });
}

Stream::~Stream() {
  try {
    synchronize();
  } catch (...) {
  }
  {
    std::lock_guard<std::mutex> lock(submit_mutex_);
    stop_ = true;
  }
  submit_ready_.notify_one();
  submitter_.join();
  for (Buffer& buffer : spare_arena_) destroy_buffer(device_, buffer);
  for (Batch& batch : in_flight_) {
    for (Buffer& buffer : batch.arena) destroy_buffer(device_, buffer);
  }
  for (Buffer& buffer : current_.arena) destroy_buffer(device_, buffer);
  for (VkQueryPool pool : query_pools_) vkDestroyQueryPool(device_, pool, nullptr);
  vkDestroySemaphore(device_, timeline_, nullptr);
  vkDestroyCommandPool(device_, pool_, nullptr);
}

uint64_t Stream::completed() {
  uint64_t value = 0;
  check(vkGetSemaphoreCounterValue(device_, timeline_, &value), "vkGetSemaphoreCounterValue");
  return value;
}

bool Stream::query(uint64_t value) {
  return completed() >= value;
}

uint64_t Stream::last_value() {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_.commands ? current_.value : submitted_;
}

void Stream::recycle_locked(uint64_t done) {
  while (!in_flight_.empty() && in_flight_.front().value <= done) {
    Batch& batch = in_flight_.front();
    spare_commands_.push_back(batch.commands);
    for (Buffer& buffer : batch.arena) spare_arena_.push_back(buffer);
    in_flight_.pop_front();
  }
}

Stream::Batch& Stream::open() {
  if (current_.commands) return current_;
  recycle_locked(completed());
  if (in_flight_.size() >= kMaxInFlight) {
    uint64_t oldest = in_flight_.front().value;
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline_;
    wait.pValues = &oldest;
    check(vkWaitSemaphores(device_, &wait, UINT64_MAX), "vkWaitSemaphores");
    recycle_locked(completed());
  }
  if (spare_commands_.empty()) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer commands;
    check(vkAllocateCommandBuffers(device_, &info, &commands), "vkAllocateCommandBuffers");
    spare_commands_.push_back(commands);
  }
  current_ = Batch{};
  current_.commands = spare_commands_.back();
  spare_commands_.pop_back();
  current_.value = submitted_ + 1;
  check(vkResetCommandBuffer(current_.commands, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(current_.commands, &begin), "vkBeginCommandBuffer");
  bound_ = VK_NULL_HANDLE;
  return current_;
}

void Stream::order(Batch& batch, std::span<const Access> accesses) {
  bool hazard = pending_reads_.size() + pending_writes_.size() > kMaxPending;
  for (const Access& access : accesses) {
    if (hazard) break;
    for (const Access& w : pending_writes_) hazard = hazard || overlaps(access, w);
    if (access.write) {
      for (const Access& r : pending_reads_) hazard = hazard || overlaps(access, r);
    }
  }
  if (hazard) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    VkPipelineStageFlags stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(batch.commands, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    pending_reads_.clear();
    pending_writes_.clear();
  }
  for (const Access& access : accesses)
    (access.write ? pending_writes_ : pending_reads_).push_back(access);
}

uint64_t Stream::push_params(Batch& batch, const void* data, uint32_t bytes) {
  uint64_t offset = (batch.arena_used + 15) & ~uint64_t(15);
  if (batch.arena.empty() || offset + bytes > batch.arena.back().size) {
    if (bytes > kArenaChunk) throw Error("torchvulkan: kernel parameter block too large");
    if (spare_arena_.empty()) {
      batch.arena.push_back(create_buffer(device_, arena_memory_type_, kArenaChunk, true));
    } else {
      batch.arena.push_back(spare_arena_.back());
      spare_arena_.pop_back();
    }
    offset = 0;
  }
  std::memcpy(static_cast<char*>(batch.arena.back().mapped) + offset, data, bytes);
  batch.arena_used = offset + bytes;
  return batch.arena.back().address + offset;
}

void Stream::after_record(Batch& batch, uint64_t bytes) {
  batch.bytes += bytes;
  if (++batch.recorded >= batch_limit_) return submit_locked();
  {
    std::lock_guard<std::mutex> lock(submit_mutex_);
    if (submitting_ || !to_submit_.empty()) return;
  }
  uint64_t done = completed();
  if (done >= submitted_) return submit_locked();  // the GPU is idle
  if (batch.bytes < eager_bytes_) return;
  recycle_locked(done);
  if (in_flight_.size() < kEagerQueue) submit_locked();
}

uint64_t Stream::dispatch(const Kernel& kernel, void* push, uint32_t push_bytes, const void* params,
                          uint32_t params_bytes, uint64_t invocations,
                          std::span<const Access> accesses) {
  if (invocations == 0) return last_value();
  uint64_t groups = (invocations + kernel.workgroup_size - 1) / kernel.workgroup_size;
  uint64_t x = std::min<uint64_t>(groups, max_groups_[0]);
  uint64_t y = (groups + x - 1) / x;
  if (y > max_groups_[1])
    throw Error("torchvulkan: launch of " + std::to_string(invocations) +
                " invocations exceeds the device's grid");

  std::lock_guard<std::mutex> lock(mutex_);
  Batch& batch = open();
  if (params_bytes) {
    uint64_t address = push_params(batch, params, params_bytes);
    std::memcpy(push, &address, sizeof(address));
  }
  order(batch, accesses);
  uint32_t began = 0;
  if (profiling_) {
    VkMemoryBarrier all{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    all.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    all.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(batch.commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &all, 0, nullptr, 0, nullptr);
    began = write_timestamp_locked(batch);
  }
  if (bound_ != kernel.pipeline) {
    vkCmdBindPipeline(batch.commands, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
    bound_ = kernel.pipeline;
  }
  vkCmdPushConstants(batch.commands, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(batch.commands, static_cast<uint32_t>(x), static_cast<uint32_t>(y), 1);
  if (profiling_)
    timed_.push_back({kernel.name, began, write_timestamp_locked(batch), batch.value});
  uint64_t value = batch.value;
  uint64_t bytes = 0;
  for (const Access& access : accesses) bytes += access.end - access.begin;
  after_record(batch, bytes);
  return value;
}

uint64_t Stream::copy(VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                      uint64_t bytes, Access read, Access write) {
  if (bytes == 0) return last_value();
  std::lock_guard<std::mutex> lock(mutex_);
  Batch& batch = open();
  Access accesses[] = {read, write};
  order(batch, accesses);
  VkBufferCopy region{src_offset, dst_offset, bytes};
  vkCmdCopyBuffer(batch.commands, src, dst, 1, &region);
  uint64_t value = batch.value;
  after_record(batch, 2 * bytes);
  return value;
}

uint64_t Stream::update(VkBuffer dst, uint64_t offset, const void* data, uint64_t bytes,
                        Access write) {
  if (bytes == 0) return last_value();
  std::lock_guard<std::mutex> lock(mutex_);
  Batch& batch = open();
  order(batch, std::span<const Access>(&write, 1));
  vkCmdUpdateBuffer(batch.commands, dst, offset, bytes, data);
  uint64_t value = batch.value;
  after_record(batch, bytes);
  return value;
}

uint32_t Stream::timestamp(uint64_t* value) {
  if (timestamp_bits_ == 0)
    throw Error("torchvulkan: this device's compute queue has no timestamps");
  std::lock_guard<std::mutex> lock(mutex_);
  Batch& batch = open();
  uint32_t slot = write_timestamp_locked(batch);
  *value = batch.value;
  after_record(batch, 0);
  return slot;
}

uint32_t Stream::write_timestamp_locked(Batch& batch) {
  // A slot is reused only after its last write has executed, because query
  // commands in different batches are not ordered by the hazard barriers.
  if (free_slots_.empty() || free_slots_.front().second > completed()) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = kQueriesPerPool;
    VkQueryPool pool;
    check(vkCreateQueryPool(device_, &info, nullptr, &pool), "vkCreateQueryPool");
    uint32_t first = static_cast<uint32_t>(query_pools_.size()) * kQueriesPerPool;
    query_pools_.push_back(pool);
    for (uint32_t i = 0; i < kQueriesPerPool; ++i)
      free_slots_.emplace_front(first + kQueriesPerPool - 1 - i, 0);
  }
  uint32_t slot = free_slots_.front().first;
  free_slots_.pop_front();
  VkQueryPool pool = query_pools_[slot / kQueriesPerPool];
  vkCmdResetQueryPool(batch.commands, pool, slot % kQueriesPerPool, 1);
  vkCmdWriteTimestamp(batch.commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool,
                      slot % kQueriesPerPool);
  return slot;
}

void Stream::profile_kernels(bool on) {
  if (on && timestamp_bits_ == 0)
    throw Error("torchvulkan: this device's compute queue has no timestamps");
  std::lock_guard<std::mutex> lock(mutex_);
  profiling_ = on;
}

std::vector<std::pair<std::string, double>> Stream::kernel_times() {
  synchronize();
  std::vector<Timed> timed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    timed.swap(timed_);
  }
  std::vector<std::pair<std::string, double>> out;
  for (const Timed& t : timed) {
    out.emplace_back(t.kernel, timestamp_ns(t.end) - timestamp_ns(t.begin));
    release_timestamp(t.begin, t.value);
    release_timestamp(t.end, t.value);
  }
  return out;
}

double Stream::timestamp_ns(uint32_t slot) {
  uint64_t ticks = 0;
  check(vkGetQueryPoolResults(device_, query_pools_[slot / kQueriesPerPool], slot % kQueriesPerPool,
                              1, sizeof(ticks), &ticks, sizeof(ticks),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  if (timestamp_bits_ < 64) ticks &= (uint64_t(1) << timestamp_bits_) - 1;
  return static_cast<double>(ticks) * timestamp_period_;
}

void Stream::release_timestamp(uint32_t slot, uint64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_slots_.emplace_back(slot, value);
}

void Stream::submit_locked() {
  if (!current_.commands) return;
  // Make this batch's writes visible to host reads once its value is signalled.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(current_.commands,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  check(vkEndCommandBuffer(current_.commands), "vkEndCommandBuffer");

  {
    std::lock_guard<std::mutex> lock(submit_mutex_);
    to_submit_.emplace_back(current_.commands, current_.value);
  }
  submit_ready_.notify_one();
  submitted_ = current_.value;
  in_flight_.push_back(std::move(current_));
  current_ = Batch{};
}

void Stream::submit_loop() {
  std::unique_lock<std::mutex> lock(submit_mutex_);
  for (;;) {
    submit_ready_.wait(lock, [this] { return stop_ || !to_submit_.empty(); });
    if (to_submit_.empty()) return;  // stopping, nothing left
    auto [commands, value] = to_submit_.front();
    to_submit_.pop_front();
    submitting_ = true;
    lock.unlock();
    VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    timeline.signalSemaphoreValueCount = 1;
    timeline.pSignalSemaphoreValues = &value;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &timeline};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &timeline_;
    VkResult result = vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE);
    if (result != VK_SUCCESS) {
      // The batch never runs: signal its value from the host so that no
      // waiter hangs, and let the next wait raise the error.
      VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
      signal.semaphore = timeline_;
      signal.value = value;
      vkSignalSemaphore(device_, &signal);
    }
    lock.lock();
    submitting_ = false;
    if (result != VK_SUCCESS && submit_error_ == VK_SUCCESS) submit_error_ = result;
  }
}

void Stream::check_submitted() {
  VkResult error;
  {
    std::lock_guard<std::mutex> lock(submit_mutex_);
    error = submit_error_;
    submit_error_ = VK_SUCCESS;
  }
  check(error, "vkQueueSubmit");
}

void Stream::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  submit_locked();
}

void Stream::wait_locked(std::unique_lock<std::mutex>& lock, uint64_t value) {
  if (current_.commands && value >= current_.value) submit_locked();
  value = std::min(value, submitted_);
  lock.unlock();  // other threads may record while this one waits
  auto deadline = std::chrono::steady_clock::now() + spin_;
  while (completed() < value && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wait.semaphoreCount = 1;
  wait.pSemaphores = &timeline_;
  wait.pValues = &value;
  check(vkWaitSemaphores(device_, &wait, UINT64_MAX), "vkWaitSemaphores");
  lock.lock();
  recycle_locked(completed());
  check_submitted();
}

void Stream::wait(uint64_t value) {
  std::unique_lock<std::mutex> lock(mutex_);
  wait_locked(lock, value);
}

void Stream::synchronize() {
  std::unique_lock<std::mutex> lock(mutex_);
  wait_locked(lock, current_.commands ? current_.value : submitted_);
}

}  // namespace torchvulkan::rt
