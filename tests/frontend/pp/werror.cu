// RUN: -E -Werror
// -Werror turns warnings into errors (exit 1).
#define X 1
#define X 2
int x = X;
