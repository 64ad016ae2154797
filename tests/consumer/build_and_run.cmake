# Configures, builds and runs the consumer project in WORK; fails with what went wrong.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK} -DRAYPICK_SOURCE=${RAYPICK_SOURCE}
                        -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed:\n${out}\n${err}")
endif()
# The core alone: none of raypick's other parts were configured.
foreach(part scene cli raycast app harness bench tests)
  if(EXISTS ${WORK}/raypick/${part})
    message(FATAL_ERROR "raypick as a subproject configured its ${part}/ too; only the core was asked for")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK} -j2
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the consumer failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${WORK}/consumer RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer exited with ${status}:\n${out}\n${err}")
endif()
