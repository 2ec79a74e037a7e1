# Fails if a C++/CUDA source of the project is not clang-format clean.
# Run as: cmake -DCLANG_FORMAT=<exe> -DROOT=<source dir> -P CheckFormat.cmake
file(GLOB_RECURSE sources
  ${ROOT}/passes/*.cpp ${ROOT}/passes/*.h
  ${ROOT}/runtime/*.cpp ${ROOT}/runtime/*.h ${ROOT}/runtime/*.cu
  ${ROOT}/runtime/*.cuh
  ${ROOT}/include/*.h
  ${ROOT}/test/*.cpp ${ROOT}/test/*.h ${ROOT}/test/gpu/*.cu
  ${ROOT}/bench/*.cpp ${ROOT}/bench/*.h ${ROOT}/bench/*.cu ${ROOT}/bench/*.cuh)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${sources}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-format: these files need formatting "
                      "(clang-format-22 -i <file>):\n${err}")
endif()
message(STATUS "clang-format: ${CMAKE_ARGC} checked, all clean")
