// RUN: --pass-pipeline=builtin.module(nvvm.func(eqsat{remarks=true})) --pass-statistics
// Facts from control flow and known bits (tests/ptx/guards.cu before eqsat in -O3). bucket:
// under `if (i >= 0 && i < n)` (a select of two icmps on the true edge) i is non-negative,
// so i / 16 is a shift and i % 5 an unsigned magic number, while in[i] / 8 and in[i] % 3
// keep their signed forms. rows: the unrolled loop's counter starts at 0 and only steps up
// (add nsw of constants), so r / 4 and r % 4 are a shift and a mask; it steps by 4, so its
// low two bits are zero: in the unrolled body (r + j) / 4 is r / 4 (lshr-add-carry-free,
// after the copies' r + 1 + 1 are summed as the graph is built) and (r + j) % 4 is j
// (and-add-clear-below). packed: the known low bits of (t << 3) | 5 fold the masks and the
// remainder to constants, and or-disjoint-add makes the or an add.
module {
  nvvm.func kernel @_Z6bucketPKiPiii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %2 = sreg ctaid_x : i32
    %3 = sreg ntid_x : i32
    %4 = mul %2, %3 : i32
    %5 = sreg tid_x : i32
    %6 = add %4, %5 : i32
    %7 = constant 0 : i32
    %8 = icmp sge, %6, %7 : i32
    %9 = icmp slt, %6, %arg2 : i32
    %10 = constant false
    %11 = select %8, %9, %10 : i1
    cond_br %11, ^bb1, ^bb2
  ^bb1:
    %12 = sext %6 : i32 to i64
    %13 = constant 4 : i64
    %14 = mul %12, %13 : i64
    %15 = ptradd %0, %14 : !llvm.ptr<1>, i64
    %16 = ptradd %1, %14 : !llvm.ptr<1>, i64
    %17 = constant 8 : i32
    %18 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %19 = sdiv %18, %17 : i32
    %20 = constant 3 : i32
    %21 = load %16 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %22 = srem %21, %20 : i32
    %23 = add %19, %22 nsw : i32
    %24 = constant 16 : i32
    %25 = sdiv %6, %24 : i32
    %26 = add %23, %25 nsw : i32
    %27 = constant 5 : i32
    %28 = srem %6, %27 : i32
    %29 = add %26, %28 nsw : i32
    store %29, %15 {align = 4 : i32} : i32, !llvm.ptr<1>
    br ^bb2
  ^bb2:
    return
  }
  nvvm.func kernel @_Z4rowsPKfPfii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = constant 0.000000e+00 : f32
    %3 = constant 0 : i32
    br ^bb2(%2, %3 : f32, i32)
  ^bb2(%4: f32, %5: i32):
    %6 = icmp slt, %5, %arg2 : i32
    %7 = sub %arg2, %5 : i32
    %8 = constant 3 : i32
    %9 = icmp ugt, %7, %8 : i32
    %10 = and %6, %9 : i1
    %11 = constant 4 : i32
    %12 = constant 4 : i64
    %13 = constant 1 : i32
    cond_br %10, ^bb3(%4, %5 : f32, i32), ^bb10(%4, %5 : f32, i32)
  ^bb3(%14: f32, %15: i32):
    %16 = sdiv %15, %11 : i32
    %17 = mul %16, %arg3 nsw : i32
    %18 = srem %15, %11 : i32
    %19 = add %17, %18 nsw : i32
    %20 = sext %19 : i32 to i64
    %21 = mul %20, %12 : i64
    %22 = ptradd %1, %21 : !llvm.ptr<1>, i64
    %23 = load %22 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %24 = fadd %14, %23 {contract} : f32
    %25 = add %15, %13 nsw : i32
    br ^bb4
  ^bb4:
    %26 = icmp slt, %25, %arg2 : i32
    br ^bb5
  ^bb5:
    %27 = sdiv %25, %11 : i32
    %28 = mul %27, %arg3 nsw : i32
    %29 = srem %25, %11 : i32
    %30 = add %28, %29 nsw : i32
    %31 = sext %30 : i32 to i64
    %32 = mul %31, %12 : i64
    %33 = ptradd %1, %32 : !llvm.ptr<1>, i64
    %34 = load %33 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %35 = fadd %24, %34 {contract} : f32
    %36 = add %25, %13 nsw : i32
    br ^bb6
  ^bb6:
    %37 = icmp slt, %36, %arg2 : i32
    br ^bb7
  ^bb7:
    %38 = sdiv %36, %11 : i32
    %39 = mul %38, %arg3 nsw : i32
    %40 = srem %36, %11 : i32
    %41 = add %39, %40 nsw : i32
    %42 = sext %41 : i32 to i64
    %43 = mul %42, %12 : i64
    %44 = ptradd %1, %43 : !llvm.ptr<1>, i64
    %45 = load %44 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %46 = fadd %35, %45 {contract} : f32
    %47 = add %36, %13 nsw : i32
    br ^bb8
  ^bb8:
    %48 = icmp slt, %47, %arg2 : i32
    br ^bb9
  ^bb9:
    %49 = sdiv %47, %11 : i32
    %50 = mul %49, %arg3 nsw : i32
    %51 = srem %47, %11 : i32
    %52 = add %50, %51 nsw : i32
    %53 = sext %52 : i32 to i64
    %54 = mul %53, %12 : i64
    %55 = ptradd %1, %54 : !llvm.ptr<1>, i64
    %56 = load %55 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %57 = fadd %46, %56 {contract} : f32
    %58 = add %47, %13 nsw : i32
    %59 = icmp slt, %58, %arg2 : i32
    %60 = sub %arg2, %58 : i32
    %61 = icmp ugt, %60, %8 : i32
    %62 = and %59, %61 : i1
    cond_br %62, ^bb3(%57, %58 : f32, i32), ^bb10(%57, %58 : f32, i32)
  ^bb10(%63: f32, %64: i32):
    %65 = icmp slt, %64, %arg2 : i32
    %66 = constant 4 : i32
    %67 = constant 4 : i64
    %68 = constant 1 : i32
    cond_br %65, ^bb11(%63, %64 : f32, i32), ^bb12(%63 : f32)
  ^bb11(%69: f32, %70: i32):
    %71 = sdiv %70, %66 : i32
    %72 = mul %71, %arg3 nsw : i32
    %73 = srem %70, %66 : i32
    %74 = add %72, %73 nsw : i32
    %75 = sext %74 : i32 to i64
    %76 = mul %75, %67 : i64
    %77 = ptradd %1, %76 : !llvm.ptr<1>, i64
    %78 = load %77 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %79 = fadd %69, %78 {contract} : f32
    %80 = add %70, %68 nsw : i32
    %81 = icmp slt, %80, %arg2 : i32
    cond_br %81, ^bb11(%79, %80 : f32, i32), ^bb12(%79 : f32)
  ^bb12(%82: f32):
    br ^bb13
  ^bb13:
    %83 = sreg tid_x : i32
    %84 = zext %83 : i32 to i64
    %85 = constant 4 : i64
    %86 = mul %84, %85 : i64
    %87 = ptradd %0, %86 : !llvm.ptr<1>, i64
    store %82, %87 {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z6packedPjj(%arg0: !llvm.ptr, %arg1: i32) {
    %0 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %1 = sreg tid_x : i32
    %2 = constant 3 : i32
    %3 = shl %1, %2 : i32
    %4 = constant 5 : i32
    %5 = or %3, %4 : i32
    %6 = zext %1 : i32 to i64
    %7 = constant 4 : i64
    %8 = mul %6, %7 : i64
    %9 = ptradd %0, %8 : !llvm.ptr<1>, i64
    %10 = constant 7 : i32
    %11 = and %5, %10 : i32
    %12 = lshr %5, %2 : i32
    %13 = constant 1023 : i32
    %14 = and %12, %13 : i32
    %15 = add %11, %14 : i32
    %16 = constant 2 : i32
    %17 = or %5, %16 : i32
    %18 = constant 4 : i32
    %19 = urem %17, %18 : i32
    %20 = add %15, %19 : i32
    store %20, %9 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
