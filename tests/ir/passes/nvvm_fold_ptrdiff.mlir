// RUN: --pass-pipeline=builtin.module(nvvm.func(canonicalize))
// The distance between two addresses in one object folds to a constant, through constant
// offsets and casts between address spaces (C's `(char *)&e[2] - (char *)&e[0]`); a
// `ptradd` of 0 is its base; a stack slot left without uses is erased. Must not fire: two
// different objects, an offset that is not a constant, and a slot that is stored to.
module {
  nvvm.func device @distances(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %n: i64) -> i64 {
    %zero = constant 0 : i64
    %c32 = constant 32 : i64
    %c8 = constant 8 : i64
    %slot = alloca {align = 16 : i32, name = "e", size = 48 : i64} : !llvm.ptr<5>
    %a = ptradd %slot, %c32 : !llvm.ptr<5>, i64
    %ag = addrspacecast %a : !llvm.ptr<5> to !llvm.ptr
    %b = ptradd %slot, %zero : !llvm.ptr<5>, i64
    %bg = addrspacecast %b : !llvm.ptr<5> to !llvm.ptr
    %ai = ptrtoint %ag : !llvm.ptr to i64
    %bi = ptrtoint %bg : !llvm.ptr to i64
    %d1 = sub %ai, %bi : i64
    // Two objects: stays.
    %pi = ptrtoint %p : !llvm.ptr<1> to i64
    %qi = ptrtoint %q : !llvm.ptr<1> to i64
    %d2 = sub %pi, %qi : i64
    // A run-time offset: stays.
    %pn = ptradd %p, %n : !llvm.ptr<1>, i64
    %pn8 = ptradd %pn, %c8 : !llvm.ptr<1>, i64
    %pni = ptrtoint %pn8 : !llvm.ptr<1> to i64
    %d3 = sub %pni, %pi : i64
    %kept = alloca {align = 8 : i32, name = "k", size = 8 : i64} : !llvm.ptr<5>
    store %n, %kept {align = 8 : i32} : i64, !llvm.ptr<5>
    %s = add %d1, %d2 : i64
    %t = add %s, %d3 : i64
    return %t : i64
  }
}
