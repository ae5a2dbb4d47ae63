// RUN: --pass-pipeline=builtin.module(nvvm.func(eqsat{driver=greedy})) --pass-statistics
// The same functions with the greedy driver: the simplify rules wherever they match.
module {
  nvvm.func kernel @_Z6digitsPKjPji(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = sreg ctaid_x : i32
    %3 = sreg ntid_x : i32
    %4 = mul %2, %3 : i32
    %5 = sreg tid_x : i32
    %6 = add %4, %5 : i32
    %7 = icmp slt, %6, %arg2 : i32
    cond_br %7, ^bb2, ^bb8
  ^bb2:
    %8 = sext %6 : i32 to i64
    %9 = constant 4 : i64
    %10 = mul %8, %9 : i64
    %11 = ptradd %0, %10 : !llvm.ptr<1>, i64
    %12 = ptradd %1, %10 : !llvm.ptr<1>, i64
    %13 = load %12 {align = 4 : i32} : !llvm.ptr<1> -> i32
    br ^bb3
  ^bb3:
    %14 = constant 0 : i32
    br ^bb4(%14, %13 : i32, i32)
  ^bb4(%15: i32, %16: i32):
    %17 = icmp ne, %16, %14 : i32
    %18 = constant 10 : i32
    cond_br %17, ^bb5(%15, %16 : i32, i32), ^bb6(%15 : i32)
  ^bb5(%19: i32, %20: i32):
    %21 = urem %20, %18 : i32
    %22 = add %19, %21 : i32
    %23 = udiv %20, %18 : i32
    %24 = icmp ne, %23, %14 : i32
    cond_br %24, ^bb5(%22, %23 : i32, i32), ^bb6(%22 : i32)
  ^bb6(%25: i32):
    br ^bb7
  ^bb7:
    %26 = constant 7 : i32
    %27 = udiv %5, %26 : i32
    %28 = add %25, %27 : i32
    store %28, %11 {align = 4 : i32} : i32, !llvm.ptr<1>
    br ^bb8
  ^bb8:
    return
  }
  nvvm.func kernel @_Z5lanesPii(%arg0: !llvm.ptr, %arg1: i32) {
    %0 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %1 = sreg tid_x : i32
    %2 = constant 32 : i32
    %3 = sdiv %1, %2 : i32
    %4 = srem %1, %2 : i32
    %5 = constant 5 : i32
    %6 = mul %1, %5 nsw : i32
    %7 = constant 3 : i32
    %8 = sdiv %6, %7 : i32
    %9 = sreg ctaid_x : i32
    %10 = sreg ntid_x : i32
    %11 = mul %9, %10 : i32
    %12 = add %11, %1 : i32
    %13 = zext %12 : i32 to i64
    %14 = constant 4 : i64
    %15 = mul %13, %14 : i64
    %16 = ptradd %0, %15 : !llvm.ptr<1>, i64
    %17 = constant 100 : i32
    %18 = mul %3, %17 nsw : i32
    %19 = add %18, %4 nsw : i32
    %20 = constant 1 : i32
    %21 = ashr %8, %20 : i32
    %22 = add %19, %21 nsw : i32
    %23 = constant 4 : i32
    %24 = sdiv %arg1, %23 : i32
    %25 = add %22, %24 nsw : i32
    store %25, %16 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
