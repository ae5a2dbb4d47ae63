//===- ops.td - the ub dialect ------------------------------------------------===//
//
// Undefined behaviour, as upstream MLIR's `ub` dialect spells it.
//
//===----------------------------------------------------------------------------===//

include "OpBase.td"

def UB_Dialect : Dialect {
  let name = "ub";
  let summary = "Undefined behaviour";
  let description = [{
    Points of a program that a correct execution never reaches. Of upstream's `ub`
    dialect, `ub.unreachable` is here (`ub.poison` is not: nothing emits it).
  }];
}

class UB_Op<string mnemonic, list<Trait> traits = []> : Op<UB_Dialect, mnemonic, traits>;

def UB_UnreachableOp : UB_Op<"unreachable", [Terminator]> {
  let summary = "A point control never reaches";
  let description = [{
    Ends a block that a correct execution cannot reach: after a call of a function that
    does not return, after a `switch` whose every case returns, at the end of a non-void
    function's body (C++ leaves falling off it undefined). It lowers to
    `nvvm.unreachable`; the simulator traps if a thread gets there.

    ```mlir
    ub.unreachable
    ```
  }];
  let assemblyFormat = "attr-dict";
}
