// The thread behind a VkQueue. Submissions are queued and return at once;
// the worker executes them in submission order: wait semaphores, replay
// each command buffer's tape, signal semaphores, then the fence.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace duet {

struct CommandBuffer;
struct Device;
struct Fence;
struct Semaphore;

namespace cmdtape {

struct SemaphoreOperation {
  Semaphore* semaphore;
  uint64_t value;  // timeline value; ignored for binary semaphores
};

struct Submission {
  std::vector<SemaphoreOperation> waits;
  std::vector<CommandBuffer*> command_buffers;
  std::vector<SemaphoreOperation> signals;
  Fence* fence = nullptr;
  // Runs on the queue thread after the waits and command buffers, before
  // the signals: vkQueuePresentKHR hands its images to the presentation
  // engine this way, so a present keeps its place among the queue's work.
  // Called with `true` when the device was lost meanwhile.
  std::function<void(bool device_lost)> host_operation;
};

class QueueWorker {
 public:
  explicit QueueWorker(Device* device) : device_(device) {}
  ~QueueWorker();  // finishes queued work, then joins the thread
  QueueWorker(const QueueWorker&) = delete;
  QueueWorker& operator=(const QueueWorker&) = delete;

  // Queues a batch atomically (all submissions of one vkQueueSubmit).
  void Submit(std::vector<Submission> batch);
  // Blocks until everything submitted so far has executed.
  void WaitIdle();

 private:
  void Run();
  void Execute(const Submission& submission);

  Device* device_;
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<Submission> pending_;
  uint64_t submitted_ = 0;
  uint64_t completed_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // started by the first submission
};

}  // namespace cmdtape
}  // namespace duet
