# Fails unless `BENCH [ARGS] --benchmark_list_tests` (smc_suite_bench or
# smc_bench) lists exactly the benchmarks
# <workload>/<original|smc|slice>/manual_time for every workload in
# WORKLOADS (optional), <name>/manual_time for every name in EXTRA
# (optional), and nothing else.  Needs no GPU.
# Run as: cmake -DBENCH=<binary> [-DARGS=--flag,...] [-DWORKLOADS=irreg,...]
#               [-DEXTRA=a/b,...] -P CheckSuiteList.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "," ";" args "${ARGS}")
execute_process(COMMAND ${BENCH} ${args} --benchmark_list_tests
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BENCH} --benchmark_list_tests: exit ${rc}\n"
                      "${out}${err}")
endif()
string(REPLACE "\n" ";" listed "${out}")
list(FILTER listed EXCLUDE REGEX "^$")
string(REPLACE "," ";" workloads "${WORKLOADS}")
set(missing "")
set(expected 0)
foreach(name IN LISTS workloads)
  foreach(form original smc slice)
    math(EXPR expected "${expected} + 1")
    list(FIND listed "${name}/${form}/manual_time" at)
    if(at EQUAL -1)
      list(APPEND missing "${name}/${form}")
    endif()
  endforeach()
endforeach()
string(REPLACE "," ";" extra "${EXTRA}")
foreach(name IN LISTS extra)
  math(EXPR expected "${expected} + 1")
  list(FIND listed "${name}/manual_time" at)
  if(at EQUAL -1)
    list(APPEND missing "${name}")
  endif()
endforeach()
list(LENGTH listed count)
if(missing OR NOT count EQUAL expected)
  message(FATAL_ERROR "${BENCH} lists ${count} benchmarks, expected "
                      "${expected}; missing: ${missing}\n${out}")
endif()
message(STATUS "${BENCH} lists all ${count} benchmarks")
