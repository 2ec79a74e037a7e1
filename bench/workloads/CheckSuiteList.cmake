# Fails unless `smc_suite_bench --benchmark_list_tests` lists exactly the
# benchmarks <workload>/<original|smc|slice>/manual_time for every workload
# in WORKLOADS, and nothing else.  Needs no GPU.
# Run as: cmake -DBENCH=<smc_suite_bench> -DWORKLOADS=irreg,nbf,...
#               -P CheckSuiteList.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${BENCH} --benchmark_list_tests
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "smc_suite_bench --benchmark_list_tests: exit ${rc}\n"
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
list(LENGTH listed count)
if(missing OR NOT count EQUAL expected)
  message(FATAL_ERROR "smc_suite_bench lists ${count} benchmarks, expected "
                      "${expected}; missing: ${missing}\n${out}")
endif()
message(STATUS "smc_suite_bench lists all ${count} benchmarks")
