#pragma once
// The leader's data to every rank of a group: how a program whose leader alone talks to the
// outside (the terrain's leader and the vehicle) makes every rank act on the same message.
// Records travel as their bytes, so only trivially copyable types are taken; comm/ knows
// nothing of what they mean (the coupling's ShoeState stays cosim's).
//
// Every rank of the group calls these together; on the leader (rank 0) the arguments are the
// message, elsewhere they are overwritten with it, vectors and strings resized to the leader's.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "comm/rank_group.h"

namespace trackcosim::comm {

/// The leader's bytes into `bytes` on every rank; every rank passes the same length.
void broadcast_bytes(const RankGroup& group, std::span<std::byte> bytes);

/// The leader's value.
template <class T>
void broadcast(const RankGroup& group, T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  broadcast_bytes(group, std::as_writable_bytes(std::span<T>(&value, 1)));
}

/// The leader's items (two messages: the count, then the items).
template <class T>
void broadcast(const RankGroup& group, std::vector<T>& items) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::uint64_t count = items.size();
  broadcast(group, count);
  items.resize(count);
  broadcast_bytes(group, std::as_writable_bytes(std::span<T>(items)));
}

/// The leader's text (a message, a failure's reason).
void broadcast(const RankGroup& group, std::string& text);

/// One step of a session the leader drives: a small command (what to do, and its parameters)
/// and the records it carries, both the leader's on every rank. The command and the record
/// count go together in one message, the records in a second one when there are any.
template <class Command, class Record>
void broadcast_command(const RankGroup& group, Command& command, std::vector<Record>& records) {
  static_assert(std::is_trivially_copyable_v<Command> && std::is_trivially_copyable_v<Record>);
  struct Header {
    Command command;
    std::uint64_t count;
  } header{command, records.size()};
  broadcast(group, header);
  command = header.command;
  records.resize(header.count);
  if (header.count > 0) broadcast_bytes(group, std::as_writable_bytes(std::span<Record>(records)));
}

}  // namespace trackcosim::comm
