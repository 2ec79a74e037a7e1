# CMake helpers shared by SMC's own build and by projects that use SMC through
# find_package(SMC): compile .cu files as CUDA with clang.
#
#   smc_cuda_sources(<target> <file.cu>...)
#     Adds the files to <target> and compiles them as CUDA with the C++
#     compiler (clang 22), for SMC_CUDA_ARCHS, against SMC_CUDA_PATH.
include_guard(GLOBAL)

function(smc_cuda_sources target)
  set(flags -x cuda "--cuda-path=${SMC_CUDA_PATH}" -Wno-unknown-cuda-version)
  foreach(arch IN LISTS SMC_CUDA_ARCHS)
    list(APPEND flags "--cuda-gpu-arch=${arch}")
  endforeach()
  target_sources(${target} PRIVATE ${ARGN})
  set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target}
    PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "${flags}")
  # Objects compiled with the plugin must be rebuilt when it changes.
  if(TARGET SMCPasses)
    get_target_property(plugin_dir SMCPasses BINARY_DIR)
    set_property(SOURCE ${ARGN} TARGET_DIRECTORY ${target} APPEND PROPERTY
                 OBJECT_DEPENDS ${plugin_dir}/SMCPasses.so)
  endif()
  target_include_directories(${target} SYSTEM PRIVATE
    "${SMC_CUDA_PATH}/include" "${SMC_CUDA_PATH}/include/cccl")
endfunction()
