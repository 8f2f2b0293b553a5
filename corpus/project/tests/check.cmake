# cmake -DSTK=... -DPROG=tests/NAME.stk -DEXPECT_RC=N -P tests/check.cmake
# Runs stk on one program (from the project directory) and compares its
# standard output with tests/NAME.out and its exit status with EXPECT_RC.
string(REGEX REPLACE "\\.stk$" ".out" expected_file "${PROG}")
execute_process(COMMAND "${STK}" "${PROG}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
file(READ "${expected_file}" expected)
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "${PROG}: exit status ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "${PROG}: output differs from ${expected_file}:\n${out}")
endif()
