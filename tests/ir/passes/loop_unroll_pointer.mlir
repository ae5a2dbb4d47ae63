// RUN: --pass-pipeline=builtin.module(nvvm.func(loop-unroll,sccp,memory-space-opt,dce,mem2reg)) --pass-statistics
// Range-for over a local array: the loop's variable is a pointer stepped by 4 bytes until it
// equals the array's end (16 bytes on from the same alloca), 4 trips: fully unrolled, then
// the array's accesses are direct and mem2reg keeps it in registers. Must not fire: apart,
// whose end is another alloca's (no known distance), and overshoot, whose end (18 bytes on)
// the 4-byte steps never meet; both stay loops.
module {
  nvvm.func kernel @sum4(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) {
    %taps = alloca {align = 4 : i32, name = "taps", size = 16 : i64} : !llvm.ptr<5>
    %c0 = constant 0 : i32
    %c4 = constant 4 : i64
    %c16 = constant 16 : i64
    %v0 = load %in {align = 4 : i32} : !llvm.ptr<1> -> i32
    store %v0, %taps {align = 4 : i32} : i32, !llvm.ptr<5>
    %t1 = ptradd %taps, %c4 : !llvm.ptr<5>, i64
    store %v0, %t1 {align = 4 : i32} : i32, !llvm.ptr<5>
    %c8 = constant 8 : i64
    %t2 = ptradd %taps, %c8 : !llvm.ptr<5>, i64
    store %v0, %t2 {align = 4 : i32} : i32, !llvm.ptr<5>
    %c12 = constant 12 : i64
    %t3 = ptradd %taps, %c12 : !llvm.ptr<5>, i64
    store %v0, %t3 {align = 4 : i32} : i32, !llvm.ptr<5>
    %begin = addrspacecast %taps : !llvm.ptr<5> to !llvm.ptr
    %e = ptradd %taps, %c16 : !llvm.ptr<5>, i64
    %end = addrspacecast %e : !llvm.ptr<5> to !llvm.ptr
    br ^head(%c0, %begin : i32, !llvm.ptr)
  ^head(%s: i32, %p: !llvm.ptr):
    %more = icmp ne, %p, %end : !llvm.ptr
    cond_br %more, ^body, ^done
  ^body:
    %x = load %p {align = 4 : i32} : !llvm.ptr -> i32
    %s2 = add %s, %x nsw : i32
    %p2 = ptradd %p, %c4 : !llvm.ptr, i64
    br ^head(%s2, %p2 : i32, !llvm.ptr)
  ^done:
    store %s, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @apart(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) {
    %a = alloca {align = 4 : i32, name = "a", size = 16 : i64} : !llvm.ptr<5>
    %b = alloca {align = 4 : i32, name = "b", size = 16 : i64} : !llvm.ptr<5>
    %c0 = constant 0 : i32
    %c4 = constant 4 : i64
    %begin = addrspacecast %a : !llvm.ptr<5> to !llvm.ptr
    %end = addrspacecast %b : !llvm.ptr<5> to !llvm.ptr
    br ^head(%c0, %begin : i32, !llvm.ptr)
  ^head(%s: i32, %p: !llvm.ptr):
    %more = icmp ne, %p, %end : !llvm.ptr
    cond_br %more, ^body, ^done
  ^body:
    %x = load %p {align = 4 : i32} : !llvm.ptr -> i32
    %s2 = add %s, %x nsw : i32
    %p2 = ptradd %p, %c4 : !llvm.ptr, i64
    br ^head(%s2, %p2 : i32, !llvm.ptr)
  ^done:
    store %s, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @overshoot(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) {
    %a = alloca {align = 4 : i32, name = "a", size = 32 : i64} : !llvm.ptr<5>
    %c0 = constant 0 : i32
    %c4 = constant 4 : i64
    %c18 = constant 18 : i64
    %begin = addrspacecast %a : !llvm.ptr<5> to !llvm.ptr
    %e = ptradd %a, %c18 : !llvm.ptr<5>, i64
    %end = addrspacecast %e : !llvm.ptr<5> to !llvm.ptr
    br ^head(%c0, %begin : i32, !llvm.ptr)
  ^head(%s: i32, %p: !llvm.ptr):
    %more = icmp ne, %p, %end : !llvm.ptr
    cond_br %more, ^body, ^done
  ^body:
    %x = load %p {align = 4 : i32} : !llvm.ptr -> i32
    %s2 = add %s, %x nsw : i32
    %p2 = ptradd %p, %c4 : !llvm.ptr, i64
    br ^head(%s2, %p2 : i32, !llvm.ptr)
  ^done:
    store %s, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
}
