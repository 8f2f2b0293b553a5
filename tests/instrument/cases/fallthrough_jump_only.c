/* Falling into a case label whose statement is a goto, a continue, a
 * return without a value or a compound statement that starts with one:
 * gcc -Wimplicit-fallthrough (-Wextra) takes those for terminated
 * branches and does not warn (tcc's tccrun.c, rt_printline: "case
 * N_SLINE: if (func_addr) goto rel_pc; case N_SO: case N_SOL: goto
 * abs_pc;"), but did on the instrumented file, where kpath's code for the
 * label comes before the jump; the fall-through edge's code now gets
 * kpath's marker (cfgbuild/fallthrough.c, jump_only, which took only "break"
 * before).  Nor does gcc warn on falling into a label followed by nothing
 * but null statements to the end of the switch ("case 10: ; }"), where
 * kpath's code for the label and for the switch's exit came after it
 * (empty_to_switch_end).  Falling into "return v;" (an assignment first
 * for gcc) or into a call keeps the original's warning.
 * expect: instrumented=5 skipped=0 cut=0
 * expect-paths: f=35 g=12 v=5 */
#include <stdio.h>

static int calls;

static void h(void)
{
	calls++;
}

static int f(int t, int a)
{
	int pc = 0;
	switch (t) {
	case 1:
		if (a)
			goto rel;
	case 2:
	case 3:
		goto abs;
	case 4:
		h();
	case 5:
		return a;
	case 6:
		h();
	case 7: {
		goto rel;
	}
	case 8:
		if (a == 0)
			goto rel;
	abs:
		pc += 5;
	rel:
		calls += pc;
		break;
	case 9:
		h();
	case 10:
		;
	}
	switch (t) {
	case 1:
		h();
	case 2:
	lab:
		;
		{
		}
	}
	return pc;
}

static int g(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		switch (i & 3) {
		case 0:
			h();
		case 1:
			continue;
		case 2:
			h();
		case 3: {
			break;
		}
		}
		s++;
	}
	return s;
}

static void v(int t)
{
	switch (t) {
	case 1:
		h();
	case 2:
		return;
	case 3:
		h();
	case 4:
		h();
	}
}

int main(void)
{
	int s = 0;
	for (int t = 0; t < 11; t++)
		for (int a = 0; a < 2; a++) {
			s += f(t, a);
			v(t);
		}
	printf("%d %d %d\n", s, g(10), calls);
	return 0;
}
