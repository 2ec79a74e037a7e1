# Fails if a C++ source of passes/ or runtime/ breaks the naming convention
# of .clang-tidy (LLVM's: CamelCase types, variables and members, camelBack
# functions).  Run as:
#   cmake -DRUN_CLANG_TIDY=<exe> -DCLANG_TIDY=<exe> -DBUILD=<build dir>
#         -DROOT=<source dir> -P CheckNaming.cmake
execute_process(
  COMMAND ${RUN_CLANG_TIDY} -quiet -clang-tidy-binary ${CLANG_TIDY}
          -p ${BUILD} -warnings-as-errors=* -config-file=${ROOT}/.clang-tidy
          "${ROOT}/(passes|runtime)/([a-z]+/)?[A-Za-z]+\\.cpp$"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-tidy naming (fix with run-clang-tidy-22 -fix):\n"
                      "${out}\n${err}")
endif()
message(STATUS "clang-tidy naming: passes/ and runtime/ clean")
