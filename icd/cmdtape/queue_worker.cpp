#include "cmdtape/queue_worker.h"

#include <exception>
#include <new>
#include <string>

#include "cmdtape/command_buffer.h"
#include "cmdtape/replay.h"
#include "objects/device.h"
#include "objects/sync.h"

namespace duet::cmdtape {

QueueWorker::~QueueWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void QueueWorker::Submit(std::vector<Submission> batch) {
  {
    std::lock_guard lock(mutex_);
    for (Submission& s : batch) {
      for (CommandBuffer* buffer : s.command_buffers) ++buffer->pending_submissions;
      pending_.push_back(std::move(s));
      ++submitted_;
      ++device_->queued_submissions;
    }
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  work_cv_.notify_one();
}

void QueueWorker::WaitIdle() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [&] { return completed_ == submitted_; });
}

void QueueWorker::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (pending_.empty()) return;  // stopping, and everything queued has run
    Submission submission = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    Execute(submission);
    {
      std::lock_guard sync_lock(device_->sync_mutex);
      --device_->queued_submissions;
    }
    device_->sync_cv.notify_all();
    lock.lock();
    ++completed_;
    idle_cv_.notify_all();
  }
}

void QueueWorker::Execute(const Submission& submission) {
  bool alive = true;
  for (const SemaphoreOperation& wait : submission.waits)
    alive = alive && WaitSemaphore(device_, wait.semaphore, wait.value);
  for (CommandBuffer* buffer : submission.command_buffers) {
    if (alive && !device_->lost) {
      // Nothing may escape a worker thread (it would end the process): work
      // the host cannot finish loses the device instead.
      try {
        ReplayTape(device_, buffer->tape);
      } catch (const std::bad_alloc&) {
        LoseDevice(device_, "the host ran out of memory executing a command buffer");
      } catch (const std::exception& e) {
        const std::string why = std::string("executing a command buffer failed: ") + e.what();
        LoseDevice(device_, why.c_str());
      }
    }
    if ((buffer->usage & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0)
      buffer->state = CommandBufferState::kInvalid;
    --buffer->pending_submissions;
  }
  if (submission.host_operation) submission.host_operation(!alive || device_->lost);
  std::vector<std::pair<Semaphore*, uint64_t>> signals;
  signals.reserve(submission.signals.size());
  for (const SemaphoreOperation& signal : submission.signals) signals.emplace_back(signal.semaphore, signal.value);
  SignalAll(device_, signals.data(), signals.size(), submission.fence);
}

}  // namespace duet::cmdtape
