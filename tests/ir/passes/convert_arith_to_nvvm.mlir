// RUN: --pass-pipeline=builtin.module(convert-arith-to-nvvm{fmad=true}) --pass-statistics
// Every op convert-arith-to-nvvm has a pattern for, inside a cuda function (where the pass
// runs in `cuprite compile`'s pipeline): each becomes its nvvm op, the signedness moving
// into the name (divsi -> sdiv, extui -> zext, cmpi ult -> icmp ult), float arithmetic
// contractible, `cmpf true` a constant, minsi the smin intrinsic, maxnumf the max one.
module {
  func.func @every_op(%a: i32, %b: i32, %x: f32, %y: f32, %p: i1) -> i32 {
    %c = arith.constant 7 : i32
    %f = arith.constant 1.5 : f32
    %0 = arith.addi %a, %b overflow<nsw> : i32
    %1 = arith.subi %0, %c : i32
    %2 = arith.muli %1, %b : i32
    %3 = arith.divsi %2, %c : i32
    %4 = arith.divui %3, %c : i32
    %5 = arith.remsi %4, %c : i32
    %6 = arith.remui %5, %c : i32
    %7 = arith.andi %6, %a : i32
    %8 = arith.ori %7, %b : i32
    %9 = arith.xori %8, %c : i32
    %10 = arith.shli %9, %c : i32
    %11 = arith.shrsi %10, %c : i32
    %12 = arith.shrui %11, %c : i32
    %13 = arith.minsi %12, %a : i32
    %14 = arith.minui %13, %b : i32
    %15 = arith.maxsi %14, %a : i32
    %16 = arith.maxui %15, %b : i32
    %17 = arith.addf %x, %f : f32
    %18 = arith.subf %17, %y : f32
    %19 = arith.mulf %18, %y : f32
    %20 = arith.divf %19, %f : f32
    %21 = arith.remf %20, %f : f32
    %n = arith.negf %21 : f32
    %m = arith.maxnumf %n, %x : f32
    %22 = arith.minnumf %m, %y : f32
    %23 = arith.cmpi ult, %16, %a : i32
    %24 = arith.cmpf une, %22, %x : f32
    %25 = arith.cmpf true, %22, %x : f32
    %26 = arith.select %p, %16, %a : i32
    %27 = arith.extsi %26 : i32 to i64
    %28 = arith.extui %23 : i1 to i64
    %29 = arith.addi %27, %28 : i64
    %30 = arith.trunci %29 : i64 to i32
    %31 = arith.sitofp %30 : i32 to f64
    %32 = arith.uitofp %30 : i32 to f32
    %33 = arith.fptosi %31 : f64 to i32
    %34 = arith.fptoui %32 : f32 to i32
    %35 = arith.extf %22 : f32 to f64
    %36 = arith.truncf %35 : f64 to f32
    %37 = arith.bitcast %36 : f32 to i32
    %38 = arith.addi %33, %34 : i32
    %39 = arith.addi %38, %37 : i32
    %40 = arith.extui %24 : i1 to i32
    %41 = arith.extui %25 : i1 to i32
    %42 = arith.addi %39, %40 : i32
    %43 = arith.addi %42, %41 : i32
    return %43 : i32
  }
}
