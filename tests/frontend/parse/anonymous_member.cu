// RUN: --emit=ast
// A member that is an anonymous union (or struct) is an unnamed member whose members are
// found as the enclosing class's (and take their place in its layout); a named member of an
// unnamed union type has that type; `typedef struct {...} P;` names the class P.
struct Tagged {
  int tag;
  union {
    int i;
    float f;
    struct {
      short lo, hi;
    };
  };
};
static_assert(sizeof(Tagged) == 8, "the anonymous union takes its place in the layout");
struct Named {
  int tag;
  union {
    int i;
    float f;
  } value;
};
typedef struct {
  float x, y;
} Pair;
__global__ void k(int *out, Named *n, Tagged *t, Pair *p) {
  out[0] = sizeof(Named) + n->value.i + t->i + t->hi;
  t->f = p->x;
}
