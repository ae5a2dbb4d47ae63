// cuprite's stdio.h: device code may call printf; host I/O is not compiled.
#pragma once
#include <stddef.h>
