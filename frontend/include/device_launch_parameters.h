// cuprite's device_launch_parameters.h: threadIdx, blockIdx, blockDim, gridDim and
// warpSize are built into the compiler; this header only has to exist.
#pragma once
