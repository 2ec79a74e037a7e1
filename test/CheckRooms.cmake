# Fails if a source of a runtime room includes a header of a room above it
# or of a runtime folder that is no room, or if a room has no README.md
# (runtime/README.md: rooms are layered, lowest first, as SMC_RUNTIME_ROOMS
# lists them).  Run as:
#   cmake -DROOT=<source dir> "-DROOMS=base;plan;..." -P CheckRooms.cmake
set(problems "")
set(checked 0)
foreach(room IN LISTS ROOMS)
  list(FIND ROOMS ${room} rank)
  if(NOT EXISTS ${ROOT}/runtime/${room}/README.md)
    string(APPEND problems "\n  runtime/${room}: no README.md")
  endif()
  file(GLOB_RECURSE sources ${ROOT}/runtime/${room}/*.h
       ${ROOT}/runtime/${room}/*.cpp ${ROOT}/runtime/${room}/*.cu)
  foreach(source IN LISTS sources)
    math(EXPR checked "${checked} + 1")
    file(STRINGS ${source} includes REGEX "^#include \"[a-z]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([a-z]+)/.*" "\\1" other "${line}")
      if(NOT IS_DIRECTORY ${ROOT}/runtime/${other})
        continue() # include/smc, llvm, nlohmann: not the runtime's
      endif()
      list(FIND ROOMS ${other} other_rank)
      file(RELATIVE_PATH name ${ROOT} ${source})
      if(other_rank EQUAL -1)
        string(APPEND problems "\n  ${name}: '${line}' names no room")
      elseif(other_rank GREATER rank)
        string(APPEND problems
               "\n  ${name}: '${line}' (room ${room} is below ${other})")
      endif()
    endforeach()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "runtime rooms include rooms above them:${problems}")
endif()
message(STATUS "runtime rooms: ${checked} sources, every include downwards")
