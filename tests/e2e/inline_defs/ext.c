/* The external definitions of c99.c's and gnu89.c's inline-only
 * functions (a program calls them where the compiler does not inline). */
int only_inline(int x);
int spelled(int x);
int gnu_only(int x);
int ext_only(int x);
int ext_redecl(int x);
int only_inline(int x) { return x < 0 ? -x : x; }
int spelled(int x) { return x > 3 ? 1 : 0; }
int gnu_only(int x) { return x & 1 ? x * 3 : x / 2; }
int ext_only(int x) { return x < 0 ? -x : x; }
int ext_redecl(int x) { return x > 2 ? 2 : x; }
