// RUN: -fsyntax-only
// A member that is an anonymous union (or struct) is an error naming the construct: its
// storage would otherwise be missing from the class's layout. A named member of a union type
// is fine.
struct Tagged {
  int tag;
  union {
    int i;
    float f;
  };
};
struct Named {
  int tag;
  union Value {
    int i;
    float f;
  } value;
};
__global__ void k(int *out, Named *n) {
  out[0] = sizeof(Named) + n->value.i;
}
