// goto as real CUDA code uses it: an early exit to a common epilogue, leaving nested
// loops when a search succeeds, and a retry loop written with a backward jump.

#define CHECK_BOUNDS(i, n) \
  if ((i) >= (n)) goto done

__device__ int find_first(const int *row, int len, int key) {
  int pos = -1;
  for (int i = 0; i < len; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (row[i * 4 + j] == key) {
        pos = i * 4 + j;
        goto found;
      }
    }
  }
  return -1;
found:
  return pos;
}

// Early exits to one epilogue that always writes the status.
__global__ void epilogue(int *status, float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int code = 0;
  float v;
  CHECK_BOUNDS(i, n);
  v = in[i];
  if (v < 0.0f) {
    code = 1;
    goto done;
  }
  switch (i % 3) {
  case 0:
    out[i] = v * 2.0f;
    break;
  case 1:
    if (v > 0.5f) {
      code = 2;
      goto done;
    }
    out[i] = v + 1.0f;
    break;
  default:
    for (int k = 0; k < 3; ++k) {
      v = v * 0.5f;
      if (v < 0.05f)
        goto done;
    }
    out[i] = v;
  }
  code = 3;
done:
  if (i < n)
    status[i] = code;
}

// Leaving nested loops from a device function and from a kernel.
__global__ void search(int *pos, const int *table, const int *keys, int rows, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int key = keys[t];
  pos[2 * t] = find_first(table, rows, key);
  int r, c;
  for (r = 0; r < rows; ++r)
    for (c = 0; c < 4; ++c)
      if (table[r * 4 + c] == key)
        goto hit;
  pos[2 * t + 1] = -1;
  return;
hit:
  pos[2 * t + 1] = r * 100 + c;
}

// A backward goto: retry a lock-free update until it sticks, counting the attempts.
__global__ void retry(unsigned int *counter, int *attempts, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int tries = 0;
again:
  ++tries;
  {
    unsigned int old = *counter;
    unsigned int want = old + (unsigned int)(t % 5) + 1u;
    if (atomicCAS(counter, old, want) != old)
      goto again;
  }
  attempts[t] = tries > 0 ? 1 : 0;
}

// Both directions to labels of one block, and a goto inside a loop continuing an outer
// one.
__global__ void state_machine(int *out, const int *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int x = in[t], steps = 0;
start:
  if (steps > 40) goto end;
  ++steps;
  if (x == 1) goto end;
  if (x % 2 == 0) {
    x /= 2;
    goto start;
  }
  for (int k = 0; k < 3; ++k) {
    x = 3 * x + 1;
    if (x % 4 == 0) goto start;
  }
  goto start;
end:
  out[t] = steps * 1000 + (x & 255);
}
