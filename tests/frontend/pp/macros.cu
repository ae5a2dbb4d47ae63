// RUN: -E
// Object- and function-like macros: nesting, arguments expanded first, self-reference,
// `#`, `##` (with placemarkers), __VA_ARGS__ and GNU's `, ## __VA_ARGS__`, __LINE__.
#define N 128
#define TWICE(x) (2 * (x))
#define QUAD(x) TWICE(TWICE(x))
#define SELF SELF + 1
#define REC(x) REC(x + 1)
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define CAT3(a, b, c) a ## b ## c
#define EMPTY
#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)
#define CALL(f, ...) f(__VA_ARGS__)
#define NAMED(args...) g(args)
#define LPAREN (
#define F(x) [x]
#define G F
#define LINE_IS __LINE__

__device__ int a = QUAD(N + 1);
__device__ int b = SELF;
__device__ int c = REC(0);
const char *s1 = STR(  spaced   out  tokens  );
const char *s2 = XSTR(N);
const char *s3 = STR("quoted \" and \\");
int CAT(var, 1) = CAT(0x, 1F) + CAT3(1, 2, 3) + CAT(, N) + CAT(N, );
void f() {
  LOG("x = %d\n", a);
  LOG("none\n");
  CALL(g, 1, 2, 3);
  CALL(h);
  NAMED(4, 5);
  int l = LINE_IS;
  int m = G(7) + F EMPTY (8);
  int n = TWICE
    (3);
}
