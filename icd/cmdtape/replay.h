// Executes a tape's records in order on the calling (queue) thread.
#pragma once

namespace duet {

struct Device;

namespace cmdtape {

class Tape;

void ReplayTape(Device* device, const Tape& tape);

}  // namespace cmdtape
}  // namespace duet
