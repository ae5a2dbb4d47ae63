// RUN: --convert-arith-to-nvvm --disable-patterns=arith-divsi-to-nvvm
// With the pattern for arith.divsi disabled, that op has no lowering: an error at its
// location naming the pass and the disabled pattern; exit code 1, no output.
module {
  func.func @average(%sum: i32, %n: i32) -> i32 {
    %one = arith.constant 1 : i32
    %m = arith.addi %n, %one : i32
    %q = arith.divsi %sum, %m : i32
    return %q : i32
  }
}
