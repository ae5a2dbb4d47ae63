// RUN: -E --diagnostics-format=json
// An #if without #endif, reported as JSON.
#ifdef SOMETHING
int x;
