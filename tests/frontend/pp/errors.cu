// RUN: -E
// Every error is reported with its span, and preprocessing goes on after it.
#define TWO(a, b) a + b
#define PASTE(a, b) a ## b
#define BAD_HASH(x) # y
#define OUTER(x) TWO(x)
int one = TWO(1);
int pasted = PASTE(+, -);
int nested = OUTER(5);
#if 1 +
#endif
#if 1 / 0
#endif
#warning "this is a warning"
#error "this is an error"
#frobnicate
#else
#endif
#include "does_not_exist.h"
#if 1
#else
#else
#endif
int unterminated = TWO(1,
