//===- ops.td - the scf dialect -----------------------------------------------===//

include "OpBase.td"

def SCF_Dialect : Dialect {
  let name = "scf";
  let summary = "Structured control flow: loops and conditionals with regions";
  let description = [{
    `scf.for`, `scf.while` and `scf.if` hold their bodies in regions and pass values
    out through `scf.yield` (and `scf.condition` for `scf.while`'s test), so loops stay
    visible as loops until they are lowered to `cf` branches.
  }];
}

class SCF_Op<string mnemonic, list<Trait> traits = []> : Op<SCF_Dialect, mnemonic, traits>;

def SCF_ForOp : SCF_Op<"for", [AllTypesMatch<["lowerBound", "upperBound", "step"]>, SingleBlockImplicitTerminator<"scf.yield">,
                              RecursiveMemoryEffects]> {
  let summary = "A counted loop with loop-carried values";
  let description = [{
    Runs the body for `lowerBound`, `lowerBound + step`, ... while below `upperBound`
    (signed comparison, unsigned with `unsigned`). The body's block arguments are the
    induction variable and the loop-carried values, which start as `initArgs`; the body's
    `scf.yield` gives their next values and the loop's results are the last ones.

    ```mlir
    %sum = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = ...
      %next = arith.addf %acc, %v : f32
      scf.yield %next : f32
    }
    ```
  }];
  let arguments = (ins SignlessIntegerOrIndex:$lowerBound, SignlessIntegerOrIndex:$upperBound, SignlessIntegerOrIndex:$step,
                   Variadic<AnyType>:$initArgs, OptionalAttr<UnitAttr>:$unsignedCmp);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def SCF_IfOp : SCF_Op<"if", [SingleBlockImplicitTerminator<"scf.yield">, RecursiveMemoryEffects]> {
  let summary = "If-then-else with results";
  let description = [{
    Runs `thenRegion` if `condition` holds, else `elseRegion` (which may be empty when
    there are no results). Each region's `scf.yield` gives the results.

    ```mlir
    %m = scf.if %c -> (i32) {
      scf.yield %a : i32
    } else {
      scf.yield %b : i32
    }
    ```
  }];
  let arguments = (ins I1:$condition);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def SCF_WhileOp : SCF_Op<"while", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "A general loop: a test region and a body region";
  let description = [{
    The `before` region receives the loop-carried values (first `inits`) and ends with
    `scf.condition(%c) %args`: if `%c` holds, `%args` go to the `after` region, whose
    `scf.yield` gives the next loop-carried values; otherwise `%args` are the results.

    ```mlir
    %r = scf.while (%x = %init) : (i32) -> i32 {
      %c = arith.cmpi slt, %x, %n : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%x: i32):
      %y = arith.addi %x, %c1 : i32
      scf.yield %y : i32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$before, SizedRegion<1>:$after);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def SCF_ExecuteRegionOp : SCF_Op<"execute_region", [RecursiveMemoryEffects]> {
  let summary = "Runs a region (of any number of blocks) once";
  let arguments = (ins OptionalAttr<UnitAttr>:$no_inline);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$region);
  let hasCustomAssemblyFormat = 1;
}

def SCF_ConditionOp : SCF_Op<"condition", [Pure, Terminator, HasParent<"scf.while">]> {
  let summary = "Ends `scf.while`'s test: continue with the arguments, or exit with them";
  let arguments = (ins I1:$condition, Variadic<AnyType>:$args);
  let assemblyFormat = "`(` $condition `)` attr-dict ($args^ `:` type($args))?";
}

def SCF_YieldOp : SCF_Op<"yield", [Pure, ReturnLike, Terminator,
                                  ParentOneOf<["scf.for", "scf.if", "scf.while", "scf.execute_region"]>]> {
  let summary = "Ends a region of an scf op, giving its values";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}
