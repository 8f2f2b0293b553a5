/* Macros for macro_comment_end_header.c: the line comment holding the end
 * of a block comment is here, in a header, not in the main file. */
#define HRET_IF(c, v) if (c) return (v) // as in "src/*.c */ odd"
#define HBONUS_IF(c) if (c) return 5 // note */ + 1 /* more
