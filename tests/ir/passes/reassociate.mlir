// RUN: --pass-pipeline=builtin.module(nvvm.func(reassociate,licm,dce)) --pass-statistics
// reassociate, then licm and dce. @fires: a counter that starts at 0 and steps by 8 (a loop unrolled
// by 8), so `(a ^ (k + 1)) & 7` is `(a ^ 1) & 7` and `(a ^ k) & 7` is `(a ^ 0) & 7`; the add
// tree `((h + m0) + m1) + b` has three invariant leaves, summed apart and hoisted: one add a
// trip. @stays, where nothing may change: the counter steps by 4 (its bit 2 is unknown under
// the mask 7), the second counter starts at a runtime value, the float sum is not
// reassociated (rounding), and the partial sum %p1 is also stored (not an inner node).
module {
  nvvm.func kernel @fires(%a: i32, %b: i32, %out: !llvm.ptr<1>) {
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c7 = constant 7 : i32
    %c8 = constant 8 : i32
    %c64 = constant 64 : i32
    br ^bb1(%c0, %c0 : i32, i32)
  ^bb1(%h: i32, %k: i32):
    %x0 = xor %a, %k : i32
    %m0 = and %x0, %c7 : i32
    %k1 = add %k, %c1 nsw : i32
    %x1 = xor %a, %k1 : i32
    %m1 = and %x1, %c7 : i32
    %h1 = add %h, %m0 nsw : i32
    %h2 = add %h1, %m1 nsw : i32
    %h3 = add %h2, %b nsw : i32
    %kn = add %k, %c8 nsw : i32
    %t = icmp slt, %kn, %c64 : i32
    cond_br %t, ^bb1(%h3, %kn : i32, i32), ^bb2
  ^bb2:
    store %h3, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @stays(%a: i32, %s: i32, %f: f32, %g: f32, %out: !llvm.ptr<1>, %fout: !llvm.ptr<1>) {
    %c0 = constant 0 : i32
    %c1 = constant 1 : i32
    %c4 = constant 4 : i32
    %c7 = constant 7 : i32
    %c8 = constant 8 : i32
    %c64 = constant 64 : i32
    %z = constant 0.000000e+00 : f32
    br ^bb1(%c0, %c0, %s, %z : i32, i32, i32, f32)
  ^bb1(%h: i32, %k: i32, %j: i32, %x: f32):
    %k1 = add %k, %c1 nsw : i32
    %x1 = xor %a, %k1 : i32
    %m1 = and %x1, %c7 : i32
    %x2 = xor %a, %j : i32
    %m2 = and %x2, %c7 : i32
    %p1 = add %h, %m1 nsw : i32
    store %p1, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    %p2 = add %p1, %m2 nsw : i32
    %p3 = add %p2, %a nsw : i32
    %y1 = fadd %x, %f : f32
    %y2 = fadd %y1, %g : f32
    %kn = add %k, %c4 nsw : i32
    %jn = add %j, %c8 nsw : i32
    %t = icmp slt, %kn, %c64 : i32
    cond_br %t, ^bb1(%p3, %kn, %jn, %y2 : i32, i32, i32, f32), ^bb2
  ^bb2:
    store %p3, %out {align = 4 : i32} : i32, !llvm.ptr<1>
    store %y2, %fout {align = 4 : i32} : f32, !llvm.ptr<1>
    return
  }
}
