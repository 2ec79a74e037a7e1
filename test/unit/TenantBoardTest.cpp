//===- TenantBoardTest.cpp - The tenant board across processes
//-------------===//
//
// runtime/tenants/: the board on an anonymous shared mapping, written by
// forked processes: a process's slot is its own until it withdraws; a
// process that died without withdrawing is freed by the next reader (its
// room is not kept); a reused pid with another start time is not the old
// process; readers see the most each other process reserves; a full board
// refuses a new process until one dies; a slot still being written is
// judged by its pid alone; a process shares its yield table and says that
// it takes SMs; SMs held by a process that died (or withdrew) are counted
// orphaned when its slot is freed, and no longer held; giving room back
// keeps a process's yields.  The board as a file is read by
// scripts/smc-tenants.
//===----------------------------------------------------------------------===//
#include "tenants/SharedBoard.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace smc::tenants;

namespace {

Board *anonymousBoard() {
  void *At = mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (At == MAP_FAILED)
    return nullptr;
  auto *B = static_cast<Board *>(At);
  initBoard(*B);
  return B;
}

// Runs Body in a forked child that then exits without withdrawing (as a
// crash would); returns the child's pid once it has been reaped.
template <typename Fn> Process inChild(Fn Body) {
  int Ready[2];
  if (pipe(Ready) != 0)
    return {};
  pid_t Child = fork();
  if (Child == 0) {
    Body();
    char Done = 1;
    (void)!write(Ready[1], &Done, 1);
    _exit(0);
  }
  char Done = 0;
  (void)!read(Ready[0], &Done, 1);
  close(Ready[0]);
  close(Ready[1]);
  Process P{uint32_t(Child), 0};
  int Status = 0;
  waitpid(Child, &Status, 0);
  return P;
}

TEST(TenantBoard, ACrashedProcessesRoomIsFreedByTheNextReader) {
  Board *B = anonymousBoard();
  ASSERT_NE(B, nullptr);
  Process Self = thisProcess();
  ASSERT_TRUE(processAlive(Self));
  ASSERT_TRUE(publish(*B, Self, {128, 32, 0}, processAlive));
  Process Child = inChild(
      [&] { publish(*B, thisProcess(), {256, 40, 4096}, processAlive); });
  ASSERT_NE(Child.Pid, 0u);
  // The child exited without withdrawing: reaped, it is dead, and its slot
  // goes with the first read.
  EXPECT_FALSE(processAlive(Process{Child.Pid, 0}));
  uint64_t Before = B->Generation.load();
  std::vector<Tenant> Live = tenants(*B, processAlive);
  ASSERT_EQ(Live.size(), 1u);
  EXPECT_TRUE(Live[0].Who == Self);
  EXPECT_GT(B->Generation.load(), Before);
  Footprint Others = largestReserved(*B, Self, processAlive);
  EXPECT_EQ(Others.Threads, 0u);
  withdraw(*B, Self);
  EXPECT_TRUE(tenants(*B, processAlive).empty());
}

TEST(TenantBoard, ReadersSeeTheMostOtherProcessesReserve) {
  Board *B = anonymousBoard();
  ASSERT_NE(B, nullptr);
  // Two "processes" faked as alive, and this one.
  auto AllAlive = [](const Process &) { return true; };
  Process A{101, 7}, C{102, 9}, Self = thisProcess();
  ASSERT_TRUE(publish(*B, A, {256, 32, 0}, AllAlive));
  ASSERT_TRUE(publish(*B, C, {128, 64, 8192}, AllAlive));
  ASSERT_TRUE(publish(*B, Self, {1024, 128, 65536}, AllAlive));
  Footprint F = largestReserved(*B, Self, AllAlive);
  EXPECT_EQ(F.Threads, 256u);
  EXPECT_EQ(F.RegistersPerThread, 64u);
  EXPECT_EQ(F.SharedBytes, 8192u);
  // Publishing again updates the process's own slot, not a second one.
  ASSERT_TRUE(publish(*B, A, {512, 32, 0}, AllAlive));
  EXPECT_EQ(tenants(*B, AllAlive).size(), 3u);
  EXPECT_EQ(largestReserved(*B, Self, AllAlive).Threads, 512u);
  // A reused pid with another start time is not the process that
  // registered: its slot is freed.
  auto SameStartOnly = [&](const Process &P) {
    return P.Pid != A.Pid || P.Start == 8;
  };
  EXPECT_EQ(tenants(*B, SameStartOnly).size(), 2u);
  EXPECT_EQ(largestReserved(*B, Self, AllAlive).Threads, 128u);
}

TEST(TenantBoard, AFullBoardTakesANewProcessOnlyInADeadOnesSlot) {
  Board *B = anonymousBoard();
  ASSERT_NE(B, nullptr);
  bool FirstDead = false;
  auto IsAlive = [&](const Process &P) { return !(FirstDead && P.Pid == 1); };
  for (uint32_t Pid = 1; Pid <= BoardSlots; ++Pid)
    ASSERT_TRUE(publish(*B, Process{Pid, 1}, {32, 16, 0}, IsAlive));
  EXPECT_FALSE(publish(*B, Process{1000, 1}, {32, 16, 0}, IsAlive));
  FirstDead = true;
  EXPECT_TRUE(publish(*B, Process{1000, 1}, {32, 16, 0}, IsAlive));
  EXPECT_EQ(tenants(*B, IsAlive).size(), size_t(BoardSlots));
}

TEST(TenantBoard, ASlotBeingWrittenIsJudgedByItsPidAlone) {
  Board *B = anonymousBoard();
  ASSERT_NE(B, nullptr);
  // Claimed by a live process that has not written Start yet (a stale
  // start time of the slot's last owner is there): not freed, not listed.
  B->Slots[0].Start.store(12345);
  B->Slots[0].Owner.store(101 | OwnerWriting);
  auto Alive101 = [](const Process &P) {
    return P.Pid == 101 && (P.Start == 0 || P.Start == 7);
  };
  EXPECT_TRUE(tenants(*B, Alive101).empty());
  EXPECT_EQ(B->Slots[0].Owner.load(), 101u | OwnerWriting);
  // The same of a dead process is freed.
  auto NoneAlive = [](const Process &) { return false; };
  EXPECT_TRUE(tenants(*B, NoneAlive).empty());
  EXPECT_EQ(B->Slots[0].Owner.load(), 0u);
  // Publishing writes the slot and clears the bit.
  ASSERT_TRUE(publish(*B, Process{101, 7}, {64, 8, 0}, Alive101));
  std::vector<Tenant> Live = tenants(*B, Alive101);
  ASSERT_EQ(Live.size(), 1u);
  EXPECT_EQ(Live[0].Reserved.Threads, 64u);
  EXPECT_EQ(B->Slots[0].Owner.load(), 101u);
}

TEST(TenantBoard, TheScriptShowsABoardFile) {
  char Path[] = "/tmp/smc-tenants-test-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  close(Fd);
  std::string Error;
  Board *B = mapBoard(Path, /*File=*/true, Error);
  ASSERT_NE(B, nullptr) << Error;
  // A second mapping of the same file is the same board.
  Board *Again = mapBoard(Path, /*File=*/true, Error);
  ASSERT_NE(Again, nullptr) << Error;
  Process Self = thisProcess();
  ASSERT_TRUE(publish(*B, Self, {256, 32, 1024}, processAlive));
  unsigned char Handle[TableHandleBytes] = {1, 2, 3};
  ASSERT_TRUE(shareTable(*B, Self, Handle, processAlive));
  ASSERT_TRUE(announceTaking(*B, Self, processAlive));
  std::vector<bool> Held(132, false);
  Held[5] = Held[6] = Held[131] = true;
  setHeld(*B, Self, Held);
  EXPECT_EQ(tenants(*Again, processAlive).size(), 1u);
  timespec Now{};
  clock_gettime(CLOCK_MONOTONIC, &Now);
  B->RoomKeptNs.store(int64_t(Now.tv_sec) * 1000000000 + Now.tv_nsec);
  std::string Command = std::string(SMC_SOURCE_DIR) +
                        "/scripts/smc-tenants --board " + Path + " 2>&1";
  FILE *Out = popen(Command.c_str(), "r");
  ASSERT_NE(Out, nullptr);
  std::string Text;
  char Buffer[512];
  while (fgets(Buffer, sizeof Buffer, Out))
    Text += Buffer;
  EXPECT_EQ(pclose(Out), 0) << Text;
  EXPECT_NE(Text.find("1 tenant(s)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("pid " + std::to_string(Self.Pid)), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("alive"), std::string::npos) << Text;
  EXPECT_NE(Text.find("CTA of 256 threads, 32 registers/thread, 1024 B"),
            std::string::npos)
      << Text;
  // (how long ago depends on how soon the script runs)
  EXPECT_NE(Text.find("room last kept by a best-effort launch "),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("no best-effort launch has kept room"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("shares its yield table"), std::string::npos) << Text;
  EXPECT_NE(Text.find("takes SMs, holds SMs 5-6,131"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("0 orphaned"), std::string::npos) << Text;
  std::remove(Path);
}

TEST(TenantBoard, ABoardWithoutTheRoomWordGrows) {
  // A board file an SMC without RoomKeptNs made (its size ends at the
  // slots) maps, grown, with its slots kept and no room kept yet.
  char Path[] = "/tmp/smc-tenants-test-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  std::vector<char> Old(16 + BoardSlots * sizeof(Slot), 0);
  Board Made;
  std::memset(static_cast<void *>(&Made), 0, sizeof Made);
  initBoard(Made);
  Made.Slots[3].Owner.store(uint32_t(getpid()));
  std::memcpy(Old.data(), static_cast<const void *>(&Made), Old.size());
  ASSERT_EQ(write(Fd, Old.data(), Old.size()), ssize_t(Old.size()));
  close(Fd);
  std::string Error;
  Board *B = mapBoard(Path, /*File=*/true, Error);
  ASSERT_NE(B, nullptr) << Error;
  EXPECT_EQ(B->Slots[3].Owner.load(), uint32_t(getpid()));
  EXPECT_EQ(B->RoomKeptNs.load(), 0);
  EXPECT_EQ(B->Orphaned.load(), 0u);
  EXPECT_EQ(B->Yields[3].Shares.load(), 0u);
  struct stat St{};
  ASSERT_EQ(stat(Path, &St), 0);
  EXPECT_EQ(size_t(St.st_size), sizeof(Board));
  std::remove(Path);
}

TEST(TenantBoard, AProcessSharesItsTableAndSaysItTakes) {
  Board *B = anonymousBoard();
  ASSERT_NE(B, nullptr);
  auto AllAlive = [](const Process &) { return true; };
  Process Owner{101, 7}, Taker{102, 9};
  unsigned char Handle[TableHandleBytes];
  for (unsigned I = 0; I < TableHandleBytes; ++I)
    Handle[I] = static_cast<unsigned char>(I * 3 + 1);
  ASSERT_TRUE(shareTable(*B, Owner, Handle, AllAlive));
  ASSERT_TRUE(announceTaking(*B, Taker, AllAlive));
  std::vector<Tenant> Live = tenants(*B, AllAlive);
  ASSERT_EQ(Live.size(), 2u);
  const Tenant &O = Live[0].Who == Owner ? Live[0] : Live[1];
  const Tenant &T = Live[0].Who == Owner ? Live[1] : Live[0];
  EXPECT_TRUE(O.Shares);
  EXPECT_FALSE(O.Takes);
  ASSERT_EQ(O.Table.size(), size_t(TableHandleBytes));
  EXPECT_EQ(std::memcmp(O.Table.data(), Handle, TableHandleBytes), 0);
  EXPECT_TRUE(T.Takes);
  EXPECT_FALSE(T.Shares);
  EXPECT_TRUE(T.Table.empty());
  // Neither reserves: yields alone are no room.
  EXPECT_EQ(largestReserved(*B, Process{1, 1}, AllAlive).Threads, 0u);
  // Giving room back keeps the slot and its yields.
  ASSERT_TRUE(publish(*B, Owner, {256, 32, 0}, AllAlive));
  EXPECT_EQ(largestReserved(*B, Taker, AllAlive).Threads, 256u);
  unreserve(*B, Owner);
  EXPECT_EQ(largestReserved(*B, Taker, AllAlive).Threads, 0u);
  Live = tenants(*B, AllAlive);
  ASSERT_EQ(Live.size(), 2u);
  EXPECT_TRUE((Live[0].Who == Owner ? Live[0] : Live[1]).Shares);
}

TEST(TenantBoard, SmsHeldByAProcessThatDiedAreOrphaned) {
  Board *B = anonymousBoard();
  ASSERT_NE(B, nullptr);
  Process Self = thisProcess();
  std::vector<bool> Mine(132, false);
  Mine[7] = true;
  ASSERT_TRUE(announceTaking(*B, Self, processAlive));
  setHeld(*B, Self, Mine);
  Process Child = inChild([&] {
    Process Me = thisProcess();
    announceTaking(*B, Me, processAlive);
    std::vector<bool> Held(132, false);
    Held[0] = Held[64] = Held[131] = true;
    setHeld(*B, Me, Held);
  });
  ASSERT_NE(Child.Pid, 0u);
  // Nobody has read since the child died: nothing is orphaned yet, and
  // no reader counts its SMs for a live process once they read.
  EXPECT_EQ(B->Orphaned.load(), 0u);
  std::vector<Tenant> Live = tenants(*B, processAlive);
  ASSERT_EQ(Live.size(), 1u);
  EXPECT_EQ(B->Orphaned.load(), 1u);
  std::vector<bool> Others = heldByOthers(Live, Self);
  ASSERT_EQ(Others.size(), size_t(BoardSms));
  EXPECT_EQ(std::count(Others.begin(), Others.end(), true), 0);
  // Every live process's, this one's included, when asked for all.
  std::vector<bool> All = heldByOthers(Live, Process{});
  EXPECT_TRUE(All[7]);
  EXPECT_EQ(std::count(All.begin(), All.end(), true), 1);
  // Holding nothing, a process that withdraws orphans nothing; holding
  // SMs, it does.
  setHeld(*B, Self, std::vector<bool>(132, false));
  withdraw(*B, Self);
  EXPECT_EQ(B->Orphaned.load(), 1u);
  ASSERT_TRUE(announceTaking(*B, Self, processAlive));
  setHeld(*B, Self, Mine);
  withdraw(*B, Self);
  EXPECT_EQ(B->Orphaned.load(), 2u);
  // A slot claimed again starts with nothing held, shared or taken.
  ASSERT_TRUE(publish(*B, Self, {32, 16, 0}, processAlive));
  Live = tenants(*B, processAlive);
  ASSERT_EQ(Live.size(), 1u);
  EXPECT_FALSE(Live[0].Takes);
  EXPECT_EQ(std::count(Live[0].Held.begin(), Live[0].Held.end(), true), 0);
}

} // namespace
