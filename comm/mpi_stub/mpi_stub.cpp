// The one-process MPI of mpi.h (cmake -DTRACKCOSIM_MPI=OFF). Every communicator is this process
// alone: rank 0 of size 1. Collectives copy; a message to oneself waits in a queue until a
// receive matches it (in order, by communicator and tag); a receive that nothing can match
// would wait forever, so it ends the process naming the tag. MPI-IO is POSIX pread/pwrite.

#include "mpi.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <vector>

struct trackcosim_stub_file {
  int fd;
};

namespace {

bool initialized = false, finalized = false;
int last_file_errno = 0;  // for MPI_Error_string of MPI_ERR_FILE
int next_comm = 3;        // after MPI_COMM_WORLD and MPI_COMM_SELF

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "mpi stub: error: %s\n", what.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

std::size_t type_size(MPI_Datatype type) {
  switch (type) {
    case MPI_BYTE:
    case MPI_CHAR: return 1;
    case MPI_INT:
    case MPI_FLOAT: return 4;
    case MPI_LONG_LONG:
    case MPI_UINT64_T:
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_DOUBLE: return 8;
    default: fail("unknown datatype " + std::to_string(type));
  }
}

std::size_t bytes_of(int count, MPI_Datatype type) { return static_cast<std::size_t>(count) * type_size(type); }

void check_comm(MPI_Comm comm, const char* call) {
  if (comm == MPI_COMM_NULL) fail(std::string(call) + " on MPI_COMM_NULL");
}

void check_rank(int rank, const char* call) {
  if (rank != 0 && rank != MPI_ANY_SOURCE)
    fail(std::string(call) + " with rank " + std::to_string(rank) + ": this build without MPI has one rank");
}

/// A reduction over one process: the result is the input.
void copy_unless_in_place(const void* in, void* out, std::size_t bytes) {
  if (in != MPI_IN_PLACE && bytes > 0) std::memmove(out, in, bytes);
}

struct Message {
  MPI_Comm comm;
  int tag;
  std::vector<unsigned char> bytes;
};
std::deque<Message> mailbox;

struct PendingReceive {
  void* buffer;
  std::size_t capacity;
  int tag;
  MPI_Comm comm;
  bool done;
  MPI_Status status;
};
std::map<int, PendingReceive> receives;
int next_request = 1;
constexpr int kSendDone = -1;  // an Isend is complete at once: its bytes are copied to the mailbox

bool matches(const Message& m, MPI_Comm comm, int tag) { return m.comm == comm && (tag == MPI_ANY_TAG || m.tag == tag); }

/// Takes the first queued message for (comm, tag) into the receive; false when none is queued.
bool deliver(PendingReceive& r) {
  for (auto it = mailbox.begin(); it != mailbox.end(); ++it) {
    if (!matches(*it, r.comm, r.tag)) continue;
    if (it->bytes.size() > r.capacity)
      fail("a message of " + std::to_string(it->bytes.size()) + " bytes for a receive of " +
           std::to_string(r.capacity));
    if (!it->bytes.empty()) std::memcpy(r.buffer, it->bytes.data(), it->bytes.size());
    r.status = {0, it->tag, MPI_SUCCESS, static_cast<long long>(it->bytes.size())};
    r.done = true;
    mailbox.erase(it);
    return true;
  }
  return false;
}

void set_status(MPI_Status* status, const MPI_Status& value) {
  if (status != MPI_STATUS_IGNORE) *status = value;
}

}  // namespace

extern "C" {

int MPI_Init(int*, char***) {
  // Started by mpirun or srun as several ranks, each would believe it is alone and compute the
  // whole problem: refuse.
  for (const char* size : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    const char* value = std::getenv(size);
    if (value != nullptr && std::atoi(value) > 1)
      fail(std::string("this program was built without MPI (TRACKCOSIM_MPI=OFF) and runs as one process, but ") +
           size + "=" + value + " says it was started as several ranks: build with MPI, or run one process (docs/gpu.md)");
  }
  initialized = true;
  return MPI_SUCCESS;
}
int MPI_Initialized(int* flag) {
  *flag = initialized ? 1 : 0;
  return MPI_SUCCESS;
}
int MPI_Finalize(void) {
  finalized = true;
  return MPI_SUCCESS;
}
int MPI_Finalized(int* flag) {
  *flag = finalized ? 1 : 0;
  return MPI_SUCCESS;
}
int MPI_Abort(MPI_Comm, int errorcode) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(errorcode);
}
int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  const std::string text = errorcode == MPI_ERR_FILE ? std::string(std::strerror(last_file_errno))
                                                     : "MPI stub error " + std::to_string(errorcode);
  const int n = static_cast<int>(std::min<std::size_t>(text.size(), MPI_MAX_ERROR_STRING - 1));
  std::memcpy(string, text.data(), static_cast<std::size_t>(n));
  string[n] = '\0';
  *resultlen = n;
  return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  check_comm(comm, "MPI_Comm_rank");
  *rank = 0;
  return MPI_SUCCESS;
}
int MPI_Comm_size(MPI_Comm comm, int* size) {
  check_comm(comm, "MPI_Comm_size");
  *size = 1;
  return MPI_SUCCESS;
}
int MPI_Comm_split(MPI_Comm comm, int, int, MPI_Comm* newcomm) {
  check_comm(comm, "MPI_Comm_split");
  *newcomm = next_comm++;
  return MPI_SUCCESS;
}
int MPI_Comm_split_type(MPI_Comm comm, int, int, MPI_Info, MPI_Comm* newcomm) {
  check_comm(comm, "MPI_Comm_split_type");
  *newcomm = next_comm++;
  return MPI_SUCCESS;
}
int MPI_Comm_free(MPI_Comm* comm) {
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}
int MPI_Intercomm_create(MPI_Comm, int, MPI_Comm, int, int, MPI_Comm*) {
  fail("the vehicle and the terrain cannot share an MPI job in a build without MPI (TRACKCOSIM_MPI=OFF): couple "
       "them over TCP (cosim.transport \"tcp\", vehicle_node --terrain tcp; tools/trackcosim run --launcher tcp)");
}

int MPI_Barrier(MPI_Comm comm) {
  check_comm(comm, "MPI_Barrier");
  return MPI_SUCCESS;
}
int MPI_Bcast(void*, int, MPI_Datatype, int root, MPI_Comm comm) {
  check_comm(comm, "MPI_Bcast");
  check_rank(root, "MPI_Bcast");
  return MPI_SUCCESS;
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op, MPI_Comm comm) {
  check_comm(comm, "MPI_Allreduce");
  copy_unless_in_place(sendbuf, recvbuf, bytes_of(count, datatype));
  return MPI_SUCCESS;
}
int MPI_Exscan(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm comm) {
  check_comm(comm, "MPI_Exscan");  // rank 0's result is undefined: left as it is
  return MPI_SUCCESS;
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int, MPI_Datatype,
                  MPI_Comm comm) {
  check_comm(comm, "MPI_Allgather");
  copy_unless_in_place(sendbuf, recvbuf, bytes_of(sendcount, sendtype));
  return MPI_SUCCESS;
}
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int, MPI_Datatype, int root,
               MPI_Comm comm) {
  check_comm(comm, "MPI_Gather");
  check_rank(root, "MPI_Gather");
  copy_unless_in_place(sendbuf, recvbuf, bytes_of(sendcount, sendtype));
  return MPI_SUCCESS;
}
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int*,
                const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  check_comm(comm, "MPI_Gatherv");
  check_rank(root, "MPI_Gatherv");
  if (sendbuf != MPI_IN_PLACE)
    copy_unless_in_place(sendbuf, static_cast<unsigned char*>(recvbuf) + bytes_of(displs[0], recvtype),
                         bytes_of(sendcount, sendtype));
  return MPI_SUCCESS;
}
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int, MPI_Datatype,
                 MPI_Comm comm) {
  check_comm(comm, "MPI_Alltoall");
  copy_unless_in_place(sendbuf, recvbuf, bytes_of(sendcount, sendtype));
  return MPI_SUCCESS;
}
int MPI_Alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                  const int*, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  check_comm(comm, "MPI_Alltoallv");
  if (sendbuf != MPI_IN_PLACE && sendcounts[0] > 0)
    std::memmove(static_cast<unsigned char*>(recvbuf) + bytes_of(rdispls[0], recvtype),
                 static_cast<const unsigned char*>(sendbuf) + bytes_of(sdispls[0], sendtype),
                 bytes_of(sendcounts[0], sendtype));
  return MPI_SUCCESS;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  check_comm(comm, "MPI_Isend");
  check_rank(dest, "MPI_Isend");
  const auto* bytes = static_cast<const unsigned char*>(buf);
  mailbox.push_back({comm, tag, std::vector<unsigned char>(bytes, bytes + bytes_of(count, datatype))});
  *request = kSendDone;
  return MPI_SUCCESS;
}
int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  check_comm(comm, "MPI_Irecv");
  check_rank(source, "MPI_Irecv");
  const int id = next_request++;
  PendingReceive r{buf, bytes_of(count, datatype), tag, comm, false, {}};
  deliver(r);
  receives[id] = r;
  *request = id;
  return MPI_SUCCESS;
}
int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  check_comm(comm, "MPI_Recv");
  check_rank(source, "MPI_Recv");
  PendingReceive r{buf, bytes_of(count, datatype), tag, comm, false, {}};
  if (!deliver(r)) fail("MPI_Recv of tag " + std::to_string(tag) + " with no message sent: it would wait forever");
  set_status(status, r.status);
  return MPI_SUCCESS;
}
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  check_comm(comm, "MPI_Iprobe");
  check_rank(source, "MPI_Iprobe");
  *flag = 0;
  for (const Message& m : mailbox)
    if (matches(m, comm, tag)) {
      *flag = 1;
      set_status(status, {0, m.tag, MPI_SUCCESS, static_cast<long long>(m.bytes.size())});
      break;
    }
  return MPI_SUCCESS;
}
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  *flag = 1;
  if (*request == MPI_REQUEST_NULL || *request == kSendDone) {
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  PendingReceive& r = receives.at(*request);
  if (!r.done && !deliver(r)) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  set_status(status, r.status);
  receives.erase(*request);
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}
int MPI_Waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  for (int i = 0; i < count; ++i) {
    int done = 0;
    const int tag = requests[i] > 0 ? receives.at(requests[i]).tag : 0;
    MPI_Test(&requests[i], &done, statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i]);
    if (!done) fail("MPI_Waitall on a receive of tag " + std::to_string(tag) + " with no message sent: it would wait forever");
  }
  return MPI_SUCCESS;
}
int MPI_Request_free(MPI_Request* request) {
  if (*request > 0) receives.erase(*request);
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}
int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  *count = static_cast<int>(status->count_bytes / static_cast<long long>(type_size(datatype)));
  return MPI_SUCCESS;
}

int MPI_Info_create(MPI_Info* info) {
  *info = 1;
  return MPI_SUCCESS;
}
int MPI_Info_set(MPI_Info, const char*, const char*) { return MPI_SUCCESS; }
int MPI_Info_free(MPI_Info* info) {
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info, MPI_File* fh) {
  check_comm(comm, "MPI_File_open");
  int flags = (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDONLY;
  if (amode & MPI_MODE_CREATE) flags |= O_CREAT;
  const int fd = ::open(filename, flags | O_CLOEXEC, 0644);
  if (fd < 0) {
    last_file_errno = errno;
    *fh = MPI_FILE_NULL;
    return MPI_ERR_FILE;
  }
  *fh = new trackcosim_stub_file{fd};
  return MPI_SUCCESS;
}
int MPI_File_close(MPI_File* fh) {
  if (*fh != MPI_FILE_NULL) {
    ::close((*fh)->fd);
    delete *fh;
  }
  *fh = MPI_FILE_NULL;
  return MPI_SUCCESS;
}
int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  struct stat s {};
  if (::fstat(fh->fd, &s) != 0) {
    last_file_errno = errno;
    return MPI_ERR_FILE;
  }
  *size = static_cast<MPI_Offset>(s.st_size);
  return MPI_SUCCESS;
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                         MPI_Status* status) {
  const std::size_t want = bytes_of(count, datatype);
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::pread(fh->fd, static_cast<unsigned char*>(buf) + got, want - got, offset + static_cast<MPI_Offset>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      last_file_errno = errno;
      return MPI_ERR_FILE;
    }
    if (n == 0) break;  // end of file: the count says how much came
    got += static_cast<std::size_t>(n);
  }
  set_status(status, {0, 0, MPI_SUCCESS, static_cast<long long>(got)});
  return MPI_SUCCESS;
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  const std::size_t want = bytes_of(count, datatype);
  std::size_t put = 0;
  while (put < want) {
    const ssize_t n =
        ::pwrite(fh->fd, static_cast<const unsigned char*>(buf) + put, want - put, offset + static_cast<MPI_Offset>(put));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      last_file_errno = n < 0 ? errno : EIO;
      return MPI_ERR_FILE;
    }
    put += static_cast<std::size_t>(n);
  }
  set_status(status, {0, 0, MPI_SUCCESS, static_cast<long long>(put)});
  return MPI_SUCCESS;
}
int MPI_File_sync(MPI_File fh) {
  if (::fsync(fh->fd) != 0) {
    last_file_errno = errno;
    return MPI_ERR_FILE;
  }
  return MPI_SUCCESS;
}

}  // extern "C"
