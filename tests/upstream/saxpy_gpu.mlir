// A kernel in upstream MLIR's gpu, memref, arith and scf dialects, as a project lowering
// its own DSL through MLIR's GPU path would write it: y[i] = a * x[i] + y[i] for i < n,
// one element per thread of a 1-D grid.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<256xf32>, %y: memref<256xf32>, %n: i32) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %inside = arith.cmpi slt, %i, %ni : index
      scf.if %inside {
        %xv = memref.load %x[%i] : memref<256xf32>
        %yv = memref.load %y[%i] : memref<256xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<256xf32>
      }
      gpu.return
    }
  }
}
