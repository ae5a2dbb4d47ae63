// RUN: --convert-nvvm-to-ptx --pass-statistics
// Instruction selection: every nvvm op with a selection pattern, as the compiler makes them
// from CUDA kernels written to use them all (integer and float arithmetic, comparisons,
// casts, memory, atomics, thread indices, barriers, shuffles, votes, a warp reduction and
// matches, a texture, inline asm,
// calls), including the fusions: mad.lo/mad.wide, fma.rn, mul.wide, a sum with a negation as
// sub.f32, and [reg+imm] addresses.
// Made from tests/ir/sources/convert_nvvm_to_ptx.cu (see its header).
module {
  nvvm.global shared @tile {align = 4 : i32, size = 256 : i64}
  nvvm.func device @_Z8scale_byff(%arg0: f32, %arg1: f32) -> f32 attributes {noinline} {
    %0 = nvvm.fmul %arg0, %arg1 {contract} : f32
    nvvm.return %0 : f32
  }
  nvvm.func device @_Z7fail_ifb(%arg0: i1) attributes {noinline} {
    nvvm.cond_br %arg0, ^bb1, ^bb2
  ^bb1:
    nvvm.unreachable
  ^bb2:
    nvvm.return
  }
  nvvm.func kernel @_Z7int_opsPiPjPxPKii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: i32) {
    %0 = nvvm.constant 4 : i64
    %1 = nvvm.constant 1 : i32
    %2 = nvvm.constant 7 : i32
    %3 = nvvm.constant 3 : i32
    %4 = nvvm.constant 2 : i32
    %5 = nvvm.constant 5 : i32
    %6 = nvvm.constant 8 : i64
    %7 = nvvm.constant 0 : i32
    %8 = nvvm.addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
    %9 = nvvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %10 = nvvm.addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %11 = nvvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %12 = nvvm.sreg ctaid_x : i32
    %13 = nvvm.sreg ntid_x : i32
    %14 = nvvm.mul %12, %13 : i32
    %15 = nvvm.sreg tid_x : i32
    %16 = nvvm.add %14, %15 : i32
    %17 = nvvm.icmp sge, %16, %arg4 : i32
    nvvm.cond_br %17, ^bb1, ^bb2
  ^bb1:
    nvvm.return
  ^bb2:
    %18 = nvvm.sext %16 : i32 to i64
    %19 = nvvm.mul %18, %0 : i64
    %20 = nvvm.ptradd %8, %19 : !llvm.ptr<1>, i64
    %21 = nvvm.load %20 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %22 = nvvm.add %16, %1 : i32
    %23 = nvvm.sext %22 : i32 to i64
    %24 = nvvm.mul %23, %0 : i64
    %25 = nvvm.ptradd %8, %24 : !llvm.ptr<1>, i64
    %26 = nvvm.load %25 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %27 = nvvm.or %26, %1 : i32
    %28 = nvvm.or %27, %1 : i32
    %29 = nvvm.ptradd %11, %19 : !llvm.ptr<1>, i64
    %30 = nvvm.add %21, %27 : i32
    %31 = nvvm.mul %21, %27 : i32
    %32 = nvvm.sdiv %31, %27 : i32
    %33 = nvvm.srem %32, %2 : i32
    %34 = nvvm.sub %30, %33 : i32
    %35 = nvvm.and %21, %27 : i32
    %36 = nvvm.add %34, %35 : i32
    %37 = nvvm.xor %21, %27 : i32
    %38 = nvvm.add %36, %37 : i32
    %39 = nvvm.shl %21, %3 : i32
    %40 = nvvm.add %38, %39 : i32
    %41 = nvvm.ashr %21, %4 : i32
    %42 = nvvm.add %40, %41 : i32
    nvvm.store %42, %29 {align = 4 : i32} : i32, !llvm.ptr<1>
    %43 = nvvm.ptradd %10, %19 : !llvm.ptr<1>, i64
    %44 = nvvm.udiv %21, %28 : i32
    %45 = nvvm.urem %21, %28 : i32
    %46 = nvvm.add %44, %45 : i32
    %47 = nvvm.lshr %21, %5 : i32
    %48 = nvvm.add %46, %47 : i32
    nvvm.store %48, %43 {align = 4 : i32} : i32, !llvm.ptr<1>
    %49 = nvvm.mul %18, %6 : i64
    %50 = nvvm.ptradd %9, %49 : !llvm.ptr<1>, i64
    %51 = nvvm.sext %21 : i32 to i64
    %52 = nvvm.sext %27 : i32 to i64
    %53 = nvvm.mul %51, %52 : i64
    %54 = nvvm.trunc %21 : i32 to i16
    %55 = nvvm.sext %54 : i16 to i64
    %56 = nvvm.add %53, %55 : i64
    %57 = nvvm.trunc %27 : i32 to i8
    %58 = nvvm.zext %57 : i8 to i64
    %59 = nvvm.add %56, %58 : i64
    nvvm.store %59, %50 {align = 8 : i32} : i64, !llvm.ptr<1>
    %60 = nvvm.add %16, %arg4 : i32
    %61 = nvvm.sext %60 : i32 to i64
    %62 = nvvm.mul %61, %0 : i64
    %63 = nvvm.ptradd %11, %62 : !llvm.ptr<1>, i64
    %64 = nvvm.icmp slt, %21, %27 : i32
    nvvm.cond_br %64, ^bb3(%21 : i32), ^bb3(%27 : i32)
  ^bb3(%65: i32):
    nvvm.store %65, %63 {align = 4 : i32} : i32, !llvm.ptr<1>
    %66 = nvvm.mul %arg4, %4 : i32
    %67 = nvvm.add %16, %66 : i32
    %68 = nvvm.sext %67 : i32 to i64
    %69 = nvvm.mul %68, %0 : i64
    %70 = nvvm.ptradd %11, %69 : !llvm.ptr<1>, i64
    %71 = nvvm.intr "brev"(%21) : (i32) -> i32
    %72 = nvvm.intr "clz"(%71) : (i32) -> i32
    %73 = nvvm.add %72, %1 : i32
    %74 = nvvm.icmp eq, %21, %7 : i32
    %75 = nvvm.select %74, %7, %73 : i32
    nvvm.store %75, %70 {align = 4 : i32} : i32, !llvm.ptr<1>
    nvvm.return
  }
  nvvm.func kernel @_Z9float_opsPfPdPiPji(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: i32) {
    %0 = nvvm.constant 4 : i64
    %1 = nvvm.constant 2.000000e+00 : f32
    %2 = nvvm.constant 1.000000e+00 : f32
    %3 = nvvm.constant 8 : i64
    %4 = nvvm.constant 3.000000e+00 : f64
    %5 = nvvm.constant 2147483647 : i32
    %6 = nvvm.constant 2 : i32
    %7 = nvvm.constant 3 : i32
    %8 = nvvm.addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
    %9 = nvvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %10 = nvvm.addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %11 = nvvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %12 = nvvm.sreg tid_x : i32
    %13 = nvvm.sext %12 : i32 to i64
    %14 = nvvm.mul %13, %0 : i64
    %15 = nvvm.ptradd %11, %14 : !llvm.ptr<1>, i64
    %16 = nvvm.load %15 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %17 = nvvm.add %12, %arg4 : i32
    %18 = nvvm.sext %17 : i32 to i64
    %19 = nvvm.mul %18, %0 : i64
    %20 = nvvm.ptradd %11, %19 : !llvm.ptr<1>, i64
    %21 = nvvm.load %20 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %22 = nvvm.fmul %16, %21 {contract} : f32
    %23 = nvvm.fadd %22, %16 {contract} : f32
    %24 = nvvm.fmul %21, %1 {contract} : f32
    %25 = nvvm.fsub %23, %24 {contract} : f32
    %26 = nvvm.fadd %21, %2 {contract} : f32
    %27 = nvvm.fdiv %25, %26 : f32
    %28 = nvvm.fneg %27 : f32
    %29 = nvvm.mul %13, %3 : i64
    %30 = nvvm.ptradd %10, %29 : !llvm.ptr<1>, i64
    %31 = nvvm.fpext %28 : f32 to f64
    %32 = nvvm.fmul %31, %4 {contract} : f64
    nvvm.store %32, %30 {align = 8 : i32} : f64, !llvm.ptr<1>
    %33 = nvvm.mul %18, %3 : i64
    %34 = nvvm.ptradd %10, %33 : !llvm.ptr<1>, i64
    %35 = nvvm.load %34 {align = 8 : i32} : !llvm.ptr<1> -> f64
    %36 = nvvm.fptrunc %35 : f64 to f32
    %37 = nvvm.intr "sqrt.rn"(%16) : (f32) -> f32
    %neg = nvvm.fneg %37 : f32
    %38 = nvvm.fadd %neg, %36 {contract} : f32
    %39 = nvvm.bitcast %21 : f32 to i32
    %40 = nvvm.and %39, %5 : i32
    %41 = nvvm.bitcast %40 : i32 to f32
    %42 = nvvm.fadd %38, %41 {contract} : f32
    nvvm.store %42, %15 {align = 4 : i32} : f32, !llvm.ptr<1>
    %43 = nvvm.ptradd %9, %14 : !llvm.ptr<1>, i64
    %44 = nvvm.fptosi %16 : f32 to i32
    %45 = nvvm.fcmp ogt, %16, %21 : f32
    %46 = nvvm.zext %45 : i1 to i32
    %47 = nvvm.add %44, %46 : i32
    %48 = nvvm.fcmp une, %16, %16 : f32
    %49 = nvvm.zext %48 : i1 to i32
    %50 = nvvm.add %47, %49 : i32
    nvvm.store %50, %43 {align = 4 : i32} : i32, !llvm.ptr<1>
    %51 = nvvm.ptradd %8, %14 : !llvm.ptr<1>, i64
    %52 = nvvm.fptoui %21 : f32 to i32
    %53 = nvvm.load %43 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %54 = nvvm.uitofp %53 : i32 to f32
    %55 = nvvm.fptoui %54 : f32 to i32
    %56 = nvvm.add %52, %55 : i32
    %57 = nvvm.load %43 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %58 = nvvm.intr "popc"(%57) : (i32) -> i32
    %59 = nvvm.add %56, %58 : i32
    nvvm.store %59, %51 {align = 4 : i32} : i32, !llvm.ptr<1>
    %60 = nvvm.mul %arg4, %6 : i32
    %61 = nvvm.add %12, %60 : i32
    %62 = nvvm.sext %61 : i32 to i64
    %63 = nvvm.mul %62, %0 : i64
    %64 = nvvm.ptradd %11, %63 : !llvm.ptr<1>, i64
    %65 = nvvm.sitofp %12 : i32 to f32
    %66 = nvvm.call @_Z8scale_byff(%16, %65) : (f32, f32) -> f32
    nvvm.store %66, %64 {align = 4 : i32} : f32, !llvm.ptr<1>
    %67 = nvvm.mul %arg4, %7 : i32
    %68 = nvvm.add %12, %67 : i32
    %69 = nvvm.sext %68 : i32 to i64
    %70 = nvvm.mul %69, %0 : i64
    %71 = nvvm.ptradd %11, %70 : !llvm.ptr<1>, i64
    %72 = nvvm.fsub %16, %21 {contract} : f32
    nvvm.store %72, %71 {align = 4 : i32} : f32, !llvm.ptr<1>
    nvvm.return
  }
  nvvm.func kernel @_Z7gpu_opsPfPiPyyPK4Pairi(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i64, %arg4: !llvm.ptr, %arg5: i32) {
    %0 = nvvm.constant 4 : i64
    %1 = nvvm.constant 1 : i32
    %2 = nvvm.constant 64 : i32
    %3 = nvvm.constant -1 : i32
    %4 = nvvm.constant 31 : i32
    %5 = nvvm.constant 0.000000e+00 : f32
    %6 = nvvm.constant 0 : i32
    %7 = nvvm.constant 0 : i64
    %8 = nvvm.constant 8 : i64
    %9 = nvvm.constant 2 : i32
    %10 = nvvm.constant 4 : i32
    %11 = nvvm.constant 3 : i32
    %12 = nvvm.addrspacecast %arg4 : !llvm.ptr to !llvm.ptr<1>
    %13 = nvvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %14 = nvvm.addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %15 = nvvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %16 = nvvm.alloca {align = 4 : i32, name = "local", size = 16 : i64} : !llvm.ptr<5>
    %17 = nvvm.sreg tid_x : i32
    %18 = nvvm.addressof @tile : !llvm.ptr<3>
    %19 = nvvm.sext %17 : i32 to i64
    %20 = nvvm.mul %19, %0 : i64
    %21 = nvvm.ptradd %18, %20 : !llvm.ptr<3>, i64
    %22 = nvvm.ptradd %15, %20 : !llvm.ptr<1>, i64
    %23 = nvvm.load %22 {align = 4 : i32} : !llvm.ptr<1> -> f32
    nvvm.store %23, %21 {align = 4 : i32} : f32, !llvm.ptr<3>
    nvvm.barrier sync() : () -> ()
    nvvm.fence gpu
    %24 = nvvm.add %17, %1 : i32
    %25 = nvvm.srem %24, %2 : i32
    %26 = nvvm.sext %25 : i32 to i64
    %27 = nvvm.mul %26, %0 : i64
    %28 = nvvm.ptradd %18, %27 : !llvm.ptr<3>, i64
    %29 = nvvm.load %28 {align = 4 : i32} : !llvm.ptr<3> -> f32
    %30 = nvvm.shfl down %3, %29, %1, %4 : f32
    %31 = nvvm.fadd %29, %30 {contract} : f32
    %32 = nvvm.activemask : i32
    %33 = nvvm.fcmp ogt, %31, %5 : f32
    %34 = nvvm.zext %33 : i1 to i32
    %35 = nvvm.icmp ne, %34, %6 : i32
    %36 = nvvm.vote all %32, %35 : i1
    %r0 = nvvm.redux umax %32, %34
    %r1 = nvvm.match any %32, %r0 : i32
    %r2 = nvvm.match all %32, %31 : f32
    %r3 = nvvm.and %r1, %r2 : i32
    %37 = nvvm.zext %36 : i1 to i32
    %r4 = nvvm.or %37, %r3 : i32
    %38 = nvvm.icmp ne, %r4, %6 : i32
    nvvm.cond_br %38, ^bb1, ^bb2
  ^bb1:
    %39 = nvvm.ptradd %14, %7 : !llvm.ptr<1>, i64
    %40 = nvvm.atomicrmw add %39, %1 gpu : !llvm.ptr<1>, i32
    nvvm.br ^bb2
  ^bb2:
    %41 = nvvm.ptradd %14, %0 : !llvm.ptr<1>, i64
    %42 = nvvm.cmpxchg %41, %6, %17 gpu : !llvm.ptr<1>, i32
    %43 = nvvm.addrspacecast %21 : !llvm.ptr<3> to !llvm.ptr
    %44 = nvvm.mul %19, %8 : i64
    %45 = nvvm.ptradd %13, %44 : !llvm.ptr<1>, i64
    %46 = nvvm.ptrtoint %43 : !llvm.ptr to i64
    nvvm.store %46, %45 {align = 8 : i32} : i64, !llvm.ptr<1>
    %47 = nvvm.load %45 {align = 8 : i32} : !llvm.ptr<1> -> i64
    %48 = nvvm.inttoptr %47 : i64 to !llvm.ptr
    %49 = nvvm.null : !llvm.ptr
    %50 = nvvm.icmp eq, %48, %49 : !llvm.ptr
    nvvm.cond_br %50, ^bb3, ^bb4
  ^bb3:
    nvvm.return
  ^bb4:
    %51:4 = nvvm.tex "1d"(%arg3, %17) {kind = "f32"} : (i64, i32) -> (f32, f32, f32, f32)
    %52 = nvvm.fadd %31, %51#0 {contract} : f32
    nvvm.store %52, %22 {align = 4 : i32} : f32, !llvm.ptr<1>
    %53 = nvvm.inline_asm "mov.u32 %0, %%laneid;", "=r"() : () -> i32
    %54 = nvvm.add %17, %9 : i32
    %55 = nvvm.sext %54 : i32 to i64
    %56 = nvvm.mul %55, %0 : i64
    %57 = nvvm.ptradd %14, %56 : !llvm.ptr<1>, i64
    nvvm.store %53, %57 {align = 4 : i32} : i32, !llvm.ptr<1>
    %58 = nvvm.icmp slt, %arg5, %6 : i32
    nvvm.call @_Z7fail_ifb(%58) : (i1) -> ()
    nvvm.br ^bb5(%6 : i32)
  ^bb5(%59: i32):
    %60 = nvvm.icmp slt, %59, %10 : i32
    nvvm.cond_br %60, ^bb6, ^bb7
  ^bb6:
    %61 = nvvm.sext %59 : i32 to i64
    %62 = nvvm.mul %61, %0 : i64
    %63 = nvvm.ptradd %16, %62 : !llvm.ptr<5>, i64
    %64 = nvvm.mul %59, %arg5 : i32
    %65 = nvvm.add %64, %17 : i32
    %66 = nvvm.sext %65 : i32 to i64
    %67 = nvvm.mul %66, %0 : i64
    %68 = nvvm.ptradd %15, %67 : !llvm.ptr<1>, i64
    %69 = nvvm.load %68 {align = 4 : i32} : !llvm.ptr<1> -> f32
    nvvm.store %69, %63 {align = 4 : i32} : f32, !llvm.ptr<5>
    %70 = nvvm.add %59, %1 : i32
    nvvm.br ^bb5(%70 : i32)
  ^bb7:
    %71 = nvvm.add %17, %arg5 : i32
    %72 = nvvm.sext %71 : i32 to i64
    %73 = nvvm.mul %72, %0 : i64
    %74 = nvvm.ptradd %15, %73 : !llvm.ptr<1>, i64
    %75 = nvvm.and %17, %11 : i32
    %76 = nvvm.sext %75 : i32 to i64
    %77 = nvvm.mul %76, %0 : i64
    %78 = nvvm.ptradd %16, %77 : !llvm.ptr<5>, i64
    %79 = nvvm.ptradd %12, %44 : !llvm.ptr<1>, i64
    %80 = nvvm.ptradd %79, %0 : !llvm.ptr<1>, i64
    %81 = nvvm.load %78 {align = 4 : i32} : !llvm.ptr<5> -> f32
    %82 = nvvm.load %80 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %83 = nvvm.fadd %81, %82 {contract} : f32
    nvvm.store %83, %74 {align = 4 : i32} : f32, !llvm.ptr<1>
    nvvm.return
  }
}

