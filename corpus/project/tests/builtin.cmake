# cmake -DSTK=... -DEXPECTED=expected.out -P tests/builtin.cmake
# Runs stk without arguments (its built-in programs) and compares.
execute_process(COMMAND "${STK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
file(READ "${EXPECTED}" expected)
if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "stk: exit status ${rc}, or output differs from ${EXPECTED}")
endif()
