/* programs.c: the built-in test programs, in the stk language. */
#include <string.h>

#include "programs.h"

const struct test_program test_programs[] = {
	{"recursion",
	 "fn fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }\n"
	 "fn fact(n) { if (n <= 1) { return 1; } return n * fact(n - 1); }\n"
	 "fn ack(m, n) {\n"
	 "  if (m == 0) { return n + 1; }\n"
	 "  if (n == 0) { return ack(m - 1, 1); }\n"
	 "  return ack(m - 1, ack(m, n - 1));\n"
	 "}\n"
	 "let out = [];\n"
	 "for i in 0..15 { push(out, fib(i)); }\n"
	 "print(\"fib:\", out);\n"
	 "print(\"fact(20) =\", fact(20));\n"
	 "print(\"ack(2, 3) =\", ack(2, 3));\n"},
	{"sieve",
	 "fn sieve(n) {\n"
	 "  let mark = [];\n"
	 "  for i in 0..n + 1 { push(mark, 1); }\n"
	 "  mark[0] = 0; mark[1] = 0;\n"
	 "  let p = 2;\n"
	 "  while (p * p <= n) {\n"
	 "    if (mark[p]) {\n"
	 "      let m = p * p;\n"
	 "      while (m <= n) { mark[m] = 0; m += p; }\n"
	 "    }\n"
	 "    p += 1;\n"
	 "  }\n"
	 "  let primes = [];\n"
	 "  for i in 0..n + 1 { if (mark[i]) { push(primes, i); } }\n"
	 "  return primes;\n"
	 "}\n"
	 "let ps = sieve(2000);\n"
	 "print(\"primes below 2000:\", len(ps));\n"
	 "print(\"first:\", slice(ps, 0, 12));\n"
	 "print(\"last:\", slice(ps, len(ps) - 3, len(ps)));\n"
	 "let twins = 0;\n"
	 "for i in 1..len(ps) { if (ps[i] - ps[i - 1] == 2) { twins += 1; } }\n"
	 "print(\"twin pairs:\", twins);\n"},
	{"strings",
	 "fn caesar(s, k) {\n"
	 "  let out = \"\";\n"
	 "  for i in 0..len(s) {\n"
	 "    let c = ord(s[i]);\n"
	 "    if (c >= 97 and c <= 122) { c = 97 + (c - 97 + k) % 26; }\n"
	 "    else if (c >= 65 and c <= 90) { c = 65 + (c - 65 + k) % 26; }\n"
	 "    out += chr(c);\n"
	 "  }\n"
	 "  return out;\n"
	 "}\n"
	 "fn reverse(s) { let r = \"\"; let i = len(s) - 1; while (i >= 0) { r += s[i]; i -= 1; } return r; }\n"
	 "fn is_pal(s) { return s == reverse(s); }\n"
	 "let text = \"the quick brown fox jumps over the lazy dog and the cat\";\n"
	 "let words = split(text, \" \");\n"
	 "print(\"words:\", len(words));\n"
	 "let seen = []; let counts = [];\n"
	 "for i in 0..len(words) {\n"
	 "  let w = words[i]; let found = 0;\n"
	 "  for j in 0..len(seen) { if (seen[j] == w) { counts[j] = counts[j] + 1; found = 1; break; } }\n"
	 "  if (not found) { push(seen, w); push(counts, 1); }\n"
	 "}\n"
	 "for j in 0..len(seen) { if (counts[j] > 1) { print(seen[j], \"x\" + str(counts[j])); } }\n"
	 "let enc = caesar(\"Hello, World\", 3);\n"
	 "print(enc, \"->\", caesar(enc, 23));\n"
	 "print(join(sort(split(\"delta alpha charlie bravo\", \" \")), \",\"));\n"
	 "let pals = [];\n"
	 "let cands = [\"level\", \"kpath\", \"racecar\", \"stack\", \"noon\", \"\"];\n"
	 "for i in 0..len(cands) { if (is_pal(cands[i])) { push(pals, cands[i]); } }\n"
	 "print(\"palindromes:\", pals);\n"
	 "print(int(\"-42\") + 50, int(\"x1\"), contains(text, \"lazy\"), contains(words, \"cow\"));\n"},
	{"sorting",
	 "fn lcg(seed) { return (seed * 1103515245 + 12345) % 2147483648; }\n"
	 "fn bubble(a) {\n"
	 "  let n = len(a); let swapped = 1;\n"
	 "  while (swapped) {\n"
	 "    swapped = 0;\n"
	 "    for i in 1..n {\n"
	 "      if (a[i - 1] > a[i]) { let t = a[i]; a[i] = a[i - 1]; a[i - 1] = t; swapped = 1; }\n"
	 "    }\n"
	 "    n -= 1;\n"
	 "  }\n"
	 "  return a;\n"
	 "}\n"
	 "fn bsearch(a, x) {\n"
	 "  let lo = 0; let hi = len(a) - 1;\n"
	 "  while (lo <= hi) {\n"
	 "    let mid = (lo + hi) / 2;\n"
	 "    if (a[mid] == x) { return mid; }\n"
	 "    if (a[mid] < x) { lo = mid + 1; } else { hi = mid - 1; }\n"
	 "  }\n"
	 "  return -1;\n"
	 "}\n"
	 "let xs = []; let ys = []; let s = 7;\n"
	 "for i in 0..150 { s = lcg(s); push(xs, s % 1000); push(ys, s % 1000); }\n"
	 "bubble(xs); sort(ys);\n"
	 "print(\"same:\", xs == ys, \"min:\", xs[0], \"max:\", xs[-1]);\n"
	 "let hits = 0;\n"
	 "for q in 0..1000 { if (bsearch(xs, q) >= 0) { hits += 1; } }\n"
	 "print(\"distinct values found:\", hits);\n"},
	{"collatz",
	 "fn steps(n) { let k = 0; while (n != 1) { if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; } k += 1; } return k; }\n"
	 "let best = 0; let arg = 0;\n"
	 "for i in 1..700 { let s = steps(i); if (s > best) { best = s; arg = i; } }\n"
	 "print(\"longest chain below 700:\", arg, \"with\", best, \"steps\");\n"},
	{"brackets",
	 "fn balanced(s) {\n"
	 "  let st = [];\n"
	 "  for i in 0..len(s) {\n"
	 "    let c = s[i];\n"
	 "    if (c == \"(\" or c == \"[\" or c == \"{\") { push(st, c); continue; }\n"
	 "    if (c == \")\" or c == \"]\" or c == \"}\") {\n"
	 "      if (len(st) == 0) { return 0; }\n"
	 "      let o = pop(st);\n"
	 "      if ((c == \")\" and o != \"(\") or (c == \"]\" and o != \"[\") or (c == \"}\" and o != \"{\")) { return 0; }\n"
	 "    }\n"
	 "  }\n"
	 "  return len(st) == 0;\n"
	 "}\n"
	 "let cases = [\"(a[b]{c})\", \"((\", \"([)]\", \"\", \"{[()()]}\", \"x)\"];\n"
	 "for i in 0..len(cases) { print(\"'\" + cases[i] + \"'\", balanced(cases[i])); }\n"},
	{"matrix",
	 "fn matrix(n, m, f) { let r = []; for i in 0..n { let row = []; for j in 0..m { push(row, f * (i + 1) + j); } push(r, row); } return r; }\n"
	 "fn mul(a, b) {\n"
	 "  let r = [];\n"
	 "  for i in 0..len(a) {\n"
	 "    let row = [];\n"
	 "    for j in 0..len(b[0]) { let s = 0; for k in 0..len(b) { s += a[i][k] * b[k][j]; } push(row, s); }\n"
	 "    push(r, row);\n"
	 "  }\n"
	 "  return r;\n"
	 "}\n"
	 "let a = matrix(4, 3, 2); let b = matrix(3, 5, 3);\n"
	 "let c = mul(a, b);\n"
	 "for i in 0..len(c) { print(c[i]); }\n"
	 "let t = 0; for i in 0..len(c) { t += c[i][i]; }\n"
	 "print(\"trace:\", t, \"max:\", max(c[3][0], c[3][4], c[0][0]), \"min:\", min(c[0][0], 99));\n"},
	{"folding",
	 "let k = 6 * 7 - (10 / 5) + 2;\n"
	 "if (1 + 1 == 2) { print(\"folded if\", k); } else { print(\"never\"); }\n"
	 "while (0) { print(\"never\"); }\n"
	 "let s = \"con\" + \"cat\";\n"
	 "print(s, 0 and 1, 1 or 0, not 0, -(-5));\n"
	 "let g = 3; let h = 0;\n"
	 "print(g > 2 and h, g > 2 or h, nil or \"default\");\n"},
	{"errors",
	 "fn inner(x) { return 100 / x; }\n"
	 "fn outer(x) { return inner(x - 1) + 1; }\n"
	 "print(\"before:\", outer(3));\n"
	 "print(\"boom:\", outer(1));\n"
	 "print(\"not reached\");\n"},
	{"syntax",
	 "let x = 1;\n"
	 "if (x > 0 { print(x); }\n"},
	{"overflow",
	 "fn down(n) { return down(n + 1); }\n"
	 "down(0);\n"},
};

const int test_program_count = (int)(sizeof test_programs / sizeof test_programs[0]);

const struct test_program *find_test_program(const char *name)
{
	for (int i = 0; i < test_program_count; i++) {
		if (!strcmp(test_programs[i].name, name))
			return &test_programs[i];
	}
	return NULL;
}
