/* GNU statement expressions: straight-line pieces of their block (MAX/SUM
 * macros, inner loops and branches), skipped only when control can leave
 * them (break out, return).
 * expect: instrumented=2 skipped=2 cut=0
 * expect-skip: g h */
#include <stdio.h>
#define MAX(a, b) ({ __typeof__(a) _a = (a), _b = (b); _a > _b ? _a : _b; })
#define SUMTO(n) ({ int _s = 0; for (int _i = 0; _i < (n); _i++) { if (_i == 50) break; _s += _i; } _s; })
static int f(int x) { int r = 0; for (int i = 0; i < x; i++) r += MAX(i, x - i) + SUMTO(i && x ? i : 3); return r; }
static int g(int x) { for (;;) { int v = ({ if (x > 3) break; x + 1; }); x = v; } return x; }
static int h(int x) { return ({ if (x) return 5; x; }); }
int main(void) { printf("%d %d %d\n", f(30), g(0), h(0)); return 0; }
