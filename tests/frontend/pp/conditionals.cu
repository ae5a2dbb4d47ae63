// RUN: -E
// #if/#elif/#else nesting, `defined`, integer arithmetic as C++ evaluates it (unsigned
// comparisons, shifts, char constants, short-circuit), __has_include, #ifdef/#ifndef.
#define A 3
#define B (A * 2 + 1)
#if B == 7 && defined A && !defined(C)
int first;
#elif 1
int not_taken;
#else
int not_taken_either;
#endif

#if -1 < 0u
int wrong_minus_one_below_0u;
#else
int minus_one_converts_to_unsigned_max;
#endif

#if (1 << 10) == 1024 && 'A' == 65 && '\n' == 10 && 0x10 == 16 && 010 == 8 && 0b11 == 3
int literals;
#endif

#if 0 && (1 / 0)
#elif 1 || (1 / 0)
int short_circuit;
#endif

#if UNDEFINED_NAME == 0 && true
int undefined_is_zero;
#endif

#ifdef A
#  ifndef B
int no;
#  else
#    if A > 2 ? 1 : 0
int nested_ternary;
#    endif
#  endif
#endif

#if __has_include(<limits.h>) && !__has_include("no_such_header.h")
int has_include;
#endif

#if 0
#error "never reported"
#if garbage (( here
#endif
#endif
int after;
