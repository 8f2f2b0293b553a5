# Writes OUT: a C definition of kp_rt_header_text holding IN verbatim.
file(READ "${IN}" text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\n" "\\n\"\n\"" text "${text}")
file(WRITE "${OUT}.tmp" "/* generated from kpath_rt.h by embed.cmake */\nconst char kp_rt_header_text[] =\n\"${text}\";\n")
file(RENAME "${OUT}.tmp" "${OUT}")
