// Text form of a command tape, for DUET_TAPE_DUMP and for tests: one line
// per record, the Vulkan command name then each argument as name=value
// (handles and flags in hex, enums as numbers, structs in braces, arrays in
// brackets, known pNext structs by type name). The code is generated with
// the records (cmdtape/tape_dump.cpp in the build tree, from gen_tape.py).
#pragma once

#include <string>

#include "cmdtape/tape.h"

namespace duet::cmdtape {

// "vkCmdCopyBuffer srcBuffer=0x... dstBuffer=0x... regionCount=1 pRegions=[{srcOffset=0 dstOffset=16 size=64}]"
std::string DumpRecord(const RecordHeader* header);

// Every record of the tape in order, each line ended by '\n'.
std::string DumpTape(const Tape& tape);

}  // namespace duet::cmdtape
