// cuprite's cuda_fp16.h: `half` and `half2`. Their operations are declared with the
// frontend's semantic analysis.
#pragma once
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
