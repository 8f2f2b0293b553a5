#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define kp_fallthrough __attribute__((fallthrough))
#endif
#endif
#ifndef kp_fallthrough
#define kp_fallthrough do { } while (0)
#endif
#ifndef kp_descriptors_dd393f20
#define kp_descriptors_dd393f20
#if defined(kp_descriptors_dd393f20)
#endif
static const unsigned kp_lines_if_else[] = {0, 0, 2, 5, 6, 0, 7, 8};
static const unsigned kp_last_lines_if_else[] = {0, 0, 4, 5, 6, 0, 7, 8};
static const struct kpath_rt_edge kp_edges_if_else[] = {{0, 2, 0}, {2, 4, 0}, {2, 3, 2}, {3, 7, 0}, {4, 5, 0}, {4, 6, 1}, {5, 7, 0}, {6, 5, 0}, {7, 1, 0}};
static struct kpath_rt_func kp_fn_if_else = {KPATH_RT_ABI, "if_else", "statements.c", 2, "774f657208824690", 3, 8, kp_lines_if_else, 9, kp_edges_if_else, 0, 0, kp_last_lines_if_else, "ecc61ca4a5abca25"};
KPATH_RT_TLS kpath_rt_u64 *kp_cnt_if_else;
static const unsigned kp_lines_loops[] = {0, 0, 11, 14, 0, 14, 14, 17, 16, 19, 18, 21, 0, 22, 24, 25, 26};
static const unsigned kp_last_lines_loops[] = {0, 0, 14, 14, 0, 15, 14, 17, 16, 19, 18, 21, 0, 22, 24, 25, 26};
static const struct kpath_rt_edge kp_edges_loops[] = {{0, 3, 0}, {0, 11, 8}, {0, 14, 11}, {0, 2, 13}, {2, 3, 0}, {3, 4, 0}, {3, 5, 3}, {4, 11, 0}, {5, 7, 0}, {5, 8, 4}, {6, 1, 0}, {7, 9, 0}, {7, 10, 1}, {8, 6, 0}, {9, 6, 0}, {10, 4, 0}, {11, 12, 0}, {11, 13, 2}, {12, 14, 0}, {13, 1, 0}, {14, 15, 0}, {15, 16, 0}, {15, 1, 1}, {16, 1, 0}};
static struct kpath_rt_func kp_fn_loops = {KPATH_RT_ABI, "loops", "statements.c", 11, "8ea36700c2c6535f", 21, 17, kp_lines_loops, 24, kp_edges_loops, 0, 0, kp_last_lines_loops, "ecc61ca4a5abca25"};
KPATH_RT_TLS void *kp_tpl_loops;
static const unsigned kp_lines_sw[] = {0, 0, 29, 43, 33, 36, 37, 40};
static const unsigned kp_last_lines_sw[] = {0, 0, 32, 43, 34, 36, 39, 41};
static const struct kpath_rt_edge kp_edges_sw[] = {{0, 2, 0}, {2, 7, 0}, {2, 4, 1}, {2, 5, 2}, {2, 6, 3}, {3, 1, 0}, {4, 5, 0}, {5, 6, 0}, {6, 3, 0}, {7, 3, 0}};
static struct kpath_rt_func kp_fn_sw = {KPATH_RT_ABI, "sw", "statements.c", 29, "636bcf4af36a1b43", 4, 8, kp_lines_sw, 10, kp_edges_sw, 0, 0, kp_last_lines_sw, "ecc61ca4a5abca25"};
KPATH_RT_TLS kpath_rt_u64 *kp_cnt_sw;
static const unsigned kp_lines_gotos[] = {0, 0, 46, 49, 54, 50, 56, 55, 57};
static const unsigned kp_last_lines_gotos[] = {0, 0, 48, 50, 54, 52, 56, 55, 58};
static const struct kpath_rt_edge kp_edges_gotos[] = {{0, 3, 0}, {0, 2, 3}, {2, 3, 0}, {3, 4, 0}, {3, 5, 2}, {4, 6, 0}, {4, 7, 1}, {5, 1, 0}, {6, 1, 0}, {7, 8, 0}, {8, 1, 0}};
static struct kpath_rt_func kp_fn_gotos = {KPATH_RT_ABI, "gotos", "statements.c", 46, "92fba55ea73467a0", 6, 9, kp_lines_gotos, 11, kp_edges_gotos, 0, 0, kp_last_lines_gotos, "ecc61ca4a5abca25"};
KPATH_RT_TLS void *kp_tpl_gotos;
static const unsigned kp_lines_nothing[] = {0, 0, 61};
static const unsigned kp_last_lines_nothing[] = {0, 0, 61};
static const struct kpath_rt_edge kp_edges_nothing[] = {{0, 2, 0}, {2, 1, 0}};
static struct kpath_rt_func kp_fn_nothing = {KPATH_RT_ABI, "nothing", "statements.c", 61, "98df8a1ea555dc2b", 1, 3, kp_lines_nothing, 2, kp_edges_nothing, 0, 0, kp_last_lines_nothing, "ecc61ca4a5abca25"};
KPATH_RT_TLS kpath_rt_u64 *kp_cnt_nothing;
#endif
#line 1 "statements.c"
/* One function per statement form of C11 6.8, for the CFG golden file. */
int if_else(int a)
{ kpath_rt_u64 kp_r = 0; int kp_ret;
	if (a > 0)
		{  kp_r = 2; a = 1; }
	else { if (a < 0)
		{  kp_r = 1; a = -1; } }
	return kp_ret = (a), kpath_rt_tally(&kp_fn_if_else, &kp_cnt_if_else, kp_r, 3), kp_ret;
}

int loops(int n)
{ kpath_rt_u64 kp_r = 16, kp_n1 = 0, kp_n2 = 0; struct kpath_rt_cursor kp_c = kpath_rt_begin_t(&kp_fn_loops, &kp_tpl_loops, kp_c); int kp_ret;
	int s = 0;
	for (int i = 0; i < n; i++, kpath_rt_emit(&kp_c, kp_r), kp_r = 3) {
		if (i == 3)
			{  kp_r += 4; continue; }
		if (i == 7)
			{  kp_r += 4; break; }
		s += i;
	}
	while ((s > 10) || (kpath_rt_exit_loop_r(&kp_c, kp_r - 1, 10, kp_n1, kp_r, 11), 0))
		{ s -= 3; ++kp_n1;  }
	do
		{ s++; }
	while ((s < 5) ? (++kp_n2, 1) : (kpath_rt_exit_loop_r(&kp_c, kp_r - 2, 12, kp_n2, kp_r, 14), 0));
	return kp_ret = (s), kpath_rt_leave(&kp_c, kp_r - 3), kp_ret;
}

int sw(int c)
{ kpath_rt_u64 kp_r = 3; int kp_ret;
	int r = 0;
	switch (c) {
	case 0:
		r = 1; kp_r = 2; 
		/* fall through */
	case 1: kp_r -= 1;  kp_fallthrough;
	case 2:
		r += 2;
		break;
	default:
		r = -1;
	 kp_r = 0; }
	return kp_ret = (r), kpath_rt_tally(&kp_fn_sw, &kp_cnt_sw, kp_r, 4), kp_ret;
}

int gotos(int n)
{ kpath_rt_u64 kp_r = 5, kp_n1 = 0; struct kpath_rt_cursor kp_c = kpath_rt_begin_t(&kp_fn_gotos, &kp_tpl_gotos, kp_c); int kp_ret;
	int i = 0;
again:
	if (i < n) {
		i += 2;
		 ++kp_n1; goto again;
	} else { kpath_rt_exit_loop_r(&kp_c, kp_r, 2, kp_n1, kp_r, 2); }
	if (i & 1)
		{ goto odd; }
	return kp_ret = (i), kpath_rt_leave(&kp_c, kp_r - 2), kp_ret;
odd:
	return kp_ret = (-i), kpath_rt_leave(&kp_c, kp_r - 1), kp_ret;
}

void nothing(void)
{
 kpath_rt_tally(&kp_fn_nothing, &kp_cnt_nothing, 0, 1); }
#line N "statements.out.c"
#ifndef kp_tail_dd393f20
#define kp_tail_dd393f20
#if defined(kp_tail_dd393f20)
#endif
#if defined(__GNUC__) || defined(__clang__)
__attribute__((constructor, no_instrument_function)) static void kp_register_all(void)
{
	kpath_rt_register(&kp_fn_if_else);
	kpath_rt_register(&kp_fn_loops);
	kpath_rt_register(&kp_fn_sw);
	kpath_rt_register(&kp_fn_gotos);
	kpath_rt_register(&kp_fn_nothing);
}
#endif
#endif
