// The one-process MPI of a build without MPI (comm/mpi_stub, TRACKCOSIM_MPI=OFF), call by call as
// trackcosim uses it: one rank; reductions and gathers give back their input; a message a rank
// sends itself arrives, in order, with its size; a receive nothing can match ends the process
// instead of hanging; MPI-IO writes and reads a file at offsets; started as several ranks, the
// program refuses to run (each rank would compute the whole problem alone).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "mpi.h"

namespace {

static_assert(TRACKCOSIM_MPI_STUB == 1, "this test must see the stub's mpi.h, not an installed MPI's");

TEST(MpiStub, EveryCommunicatorIsThisProcessAlone) {
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(rank, 0);
  EXPECT_EQ(size, 1);
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 7, 0, &split);
  ASSERT_NE(split, MPI_COMM_NULL);
  MPI_Comm_size(split, &size);
  EXPECT_EQ(size, 1);
  MPI_Comm_free(&split);
  EXPECT_EQ(split, MPI_COMM_NULL);
}

TEST(MpiStub, ReductionsAndGathersGiveBackTheirInput) {
  std::vector<double> in{1.5, -2.0, 3.25}, out(3, 0.0);
  MPI_Allreduce(in.data(), out.data(), 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(out, in);
  std::vector<std::uint64_t> in_place{5, 9};
  MPI_Allreduce(MPI_IN_PLACE, in_place.data(), 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(in_place, (std::vector<std::uint64_t>{5, 9}));

  const int mine = 42;
  int all = 0;
  MPI_Allgather(&mine, 1, MPI_INT, &all, 1, MPI_INT, MPI_COMM_WORLD);
  EXPECT_EQ(all, 42);

  // Alltoallv honours both displacements: 3 bytes from offset 2 land at offset 1.
  const std::vector<unsigned char> send{'a', 'b', 'c', 'd', 'e'};
  std::vector<unsigned char> receive(5, '.');
  const int send_count = 3, send_offset = 2, receive_count = 3, receive_offset = 1;
  MPI_Alltoallv(send.data(), &send_count, &send_offset, MPI_BYTE, receive.data(), &receive_count, &receive_offset,
                MPI_BYTE, MPI_COMM_WORLD);
  EXPECT_EQ(std::string(receive.begin(), receive.end()), ".cde.");

  const long long bytes = 12;
  long long gathered = 0;
  MPI_Gather(&bytes, 1, MPI_LONG_LONG, &gathered, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  EXPECT_EQ(gathered, 12);
}

TEST(MpiStub, AMessageToOneselfArrivesInOrderWithItsSize) {
  const std::vector<double> first{1, 2, 3}, second{4};
  MPI_Request sends[2];
  MPI_Isend(first.data(), 3, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &sends[0]);
  MPI_Isend(second.data(), 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &sends[1]);
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(0, 5, MPI_COMM_WORLD, &arrived, &status);
  ASSERT_EQ(arrived, 1);
  int count = 0;
  MPI_Get_count(&status, MPI_DOUBLE, &count);
  EXPECT_EQ(count, 3);
  std::vector<double> a(3), b(1);
  MPI_Request receives[2];
  MPI_Irecv(a.data(), 3, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &receives[0]);
  MPI_Irecv(b.data(), 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &receives[1]);
  MPI_Waitall(2, receives, MPI_STATUSES_IGNORE);
  MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
  EXPECT_EQ(a, first);
  EXPECT_EQ(b, second);
  EXPECT_EQ(receives[0], MPI_REQUEST_NULL);
  MPI_Iprobe(0, 5, MPI_COMM_WORLD, &arrived, &status);
  EXPECT_EQ(arrived, 0);
}

TEST(MpiStubDeathTest, AReceiveThatNothingCanMatchEndsTheProcess) {
  double x = 0;
  EXPECT_EXIT(MPI_Recv(&x, 1, MPI_DOUBLE, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE), ::testing::ExitedWithCode(1),
              "mpi stub: error: MPI_Recv of tag 77 with no message sent");
}

TEST(MpiStubDeathTest, TheOtherProgramCannotShareTheJob) {
  MPI_Comm inter = MPI_COMM_NULL;
  EXPECT_EXIT(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 1, 3, &inter), ::testing::ExitedWithCode(1),
              "couple them over TCP");
}

TEST(MpiStub, FilesAreWrittenAndReadAtOffsets) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "trackcosim_mpi_stub_test.bin";
  std::filesystem::remove(path);
  MPI_File file = MPI_FILE_NULL;
  ASSERT_EQ(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file),
            MPI_SUCCESS);
  const std::string head = "head", tail = "tail";
  MPI_Status status;
  ASSERT_EQ(MPI_File_write_at_all(file, 6, tail.data(), 4, MPI_BYTE, &status), MPI_SUCCESS);
  ASSERT_EQ(MPI_File_write_at_all(file, 0, head.data(), 4, MPI_BYTE, &status), MPI_SUCCESS);
  EXPECT_EQ(MPI_File_sync(file), MPI_SUCCESS);
  MPI_File_close(&file);
  EXPECT_EQ(file, MPI_FILE_NULL);

  ASSERT_EQ(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file), MPI_SUCCESS);
  MPI_Offset size = 0;
  MPI_File_get_size(file, &size);
  EXPECT_EQ(size, 10);
  std::string read(20, '\0');
  ASSERT_EQ(MPI_File_read_at_all(file, 6, read.data(), 20, MPI_BYTE, &status), MPI_SUCCESS);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  EXPECT_EQ(count, 4);  // the end of the file
  EXPECT_EQ(read.substr(0, 4), "tail");
  MPI_File_close(&file);
  std::filesystem::remove(path);

  // A file that cannot be opened: an error code whose text says why.
  const int code = MPI_File_open(MPI_COMM_WORLD, "/nonexistent/folder/x.bin", MPI_MODE_RDONLY, MPI_INFO_NULL, &file);
  ASSERT_NE(code, MPI_SUCCESS);
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  EXPECT_NE(std::string(text, static_cast<std::size_t>(length)).find("No such file"), std::string::npos) << text;
}

TEST(MpiStubDeathTest, StartedAsSeveralRanksTheProgramRefuses) {
  EXPECT_EXIT(
      {
        setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
        MPI_Init(nullptr, nullptr);
      },
      ::testing::ExitedWithCode(1), "built without MPI .* OMPI_COMM_WORLD_SIZE=2 says it was started as several ranks");
}

}  // namespace
