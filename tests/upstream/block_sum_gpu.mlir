// A block reduction in upstream MLIR's gpu dialect: each block sums its 128 elements in
// workgroup (shared) memory, halving the active threads each step, with barriers between
// steps; thread 0 writes the block's sum. The loop over strides is an scf.while.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%in: memref<1024xf32>, %out: memref<8xf32>)
        workgroup(%sh: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<1024xf32>
      memref.store %v, %sh[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%s = %c64) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<128xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %sh[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %half = arith.divui %s, %c2 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %sh[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %total, %out[%bid] : memref<8xf32>
      }
      gpu.return
    }
  }
}
