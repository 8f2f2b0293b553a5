/* Returns of every kind of type, with the value in a temporary.
 * expect: instrumented=33 skipped=0 cut=0 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct pt { int x, y; };
union u { int i; float f; };
typedef struct { char name[8]; int n; } anon_t;
typedef int myint;
typedef unsigned long long u64;
typedef int arr3[3];
typedef int (*binop)(int, int);
enum e { E0, E1, E2 };

static int g_arr[3] = {1, 2, 3};
static const int c_arr[2][3] = {{1, 2, 3}, {4, 5, 6}};

static struct pt r_struct(int a) { if (a) return (struct pt){a, -a}; struct pt p = {7, 8}; return p; }
static union u r_union(int a) { union u v; v.i = a; if (a < 0) return v; v.i = a * 2; return v; }
static anon_t r_anon(int a) { anon_t t = {"anon", a}; if (a > 1) t.n = 99; return t; }
static int *r_ptr(int i) { if (i < 0) return NULL; return &g_arr[i % 3]; }
static const char *r_cstr(int i) { return i ? "yes" : "no"; }
static char *const r_cptr(char *s) { if (!s) return 0; return s + 1; }
static void *r_void(int i) { return i ? (void *)&g_arr[0] : NULL; }
static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }
static int (*r_fnptr(int k))(int, int) { if (k) return mul; return add; }
static binop r_typedef_fn(int k) { return k ? mul : add; }
static int (*r_ptr_arr(void))[3] { return &g_arr; }
static const int (*r_cptr_arr(int i))[3] { if (i) return &c_arr[1]; return &c_arr[0]; }
static arr3 *r_typedef_arr(void) { return &g_arr; }
static const int r_const(int a) { if (a) return a + 1; return -1; }
static volatile int r_volatile(int a) { return a * 3; }
static _Bool r_bool(int a) { if (a > 2) return 5; return 0; }
static bool r_bool2(int a) { return a & 1; }
static long double r_ld(int a) { if (a) return 1.5L * a; return 0.25L; }
static double r_d(int a) { return a / 4.0; }
static float r_f(int a) { return (float)a / 8; }
static enum e r_enum(int a) { switch (a) { case 0: return E0; case 1: return E1; } return E2; }
static myint r_myint(myint a) { return a - 1; }
static u64 r_u64(int a) { if (a) return ~0ULL; return 1ULL << 40; }
static unsigned char r_uchar(int a) { return (unsigned char)(a + 250); }
static signed char r_schar(int a) { return (signed char)(a - 130); }
static short r_short(int a) { return (short)(a * 1000); }
static size_t r_size(const char *s) { return strlen(s); }
static const struct pt *r_cstructptr(const struct pt *p) { return p->x ? p : NULL; }
static struct pt **r_pp(struct pt **pp) { return pp; }
static int (*(*r_fn_ret_fn(void))(int))(int, int) { return r_fnptr; }
static _Complex double r_complex(int a) { return a + 2.0 * 1.0i; }

int main(void)
{
	for (int a = -1; a < 4; a++) {
		struct pt p = r_struct(a);
		union u v = r_union(a);
		anon_t t = r_anon(a);
		int *ip = r_ptr(a);
		char buf[] = "hello";
		printf("%d: %d,%d %d %s/%d %d %s %s %d\n", a, p.x, p.y, v.i, t.name, t.n, ip ? *ip : -7, r_cstr(a),
		       r_cptr(buf), r_void(a) != NULL);
		printf("  %d %d %d %d %d %d\n", r_fnptr(a)(3, 4), r_typedef_fn(a)(5, 6), (*r_ptr_arr())[1],
		       (*r_cptr_arr(a))[2], (*r_typedef_arr())[0], r_const(a));
		printf("  %d %d %d %.3Lf %.3f %.3f %d %d %llu %u %d %d %zu\n", r_volatile(a), r_bool(a), r_bool2(a),
		       r_ld(a), r_d(a), (double)r_f(a), r_enum(a), r_myint(a), r_u64(a), r_uchar(a), r_schar(a),
		       r_short(a), r_size(r_cstr(a)));
		printf("  %d %d %d %.1f\n", r_cstructptr(&p) != NULL, (*r_pp(&ip)) == ip, r_fn_ret_fn()(a)(2, 9),
		       __real__ r_complex(a));
	}
	return 0;
}
