// cuprite's stddef.h.
#pragma once
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL 0
#define offsetof(type, member) __builtin_offsetof(type, member)
