// cuprite's stddef.h.
#pragma once
typedef unsigned long size_t;
typedef long ptrdiff_t;
// <cstddef>'s names (cuprite reads every file as C++).
namespace std {
typedef unsigned long size_t;
typedef long ptrdiff_t;
} // namespace std
#define NULL 0
#define offsetof(type, member) __builtin_offsetof(type, member)
