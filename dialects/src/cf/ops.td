//===- ops.td - the cf dialect ------------------------------------------------===//
//
// Unstructured control flow: branches between the blocks of a region.
//
//===----------------------------------------------------------------------------===//

include "OpBase.td"

def CF_Dialect : Dialect {
  let name = "cf";
  let summary = "Unstructured control flow";
  let description = [{
    Branches between blocks of one region. The operands a branch forwards become the
    arguments of its successor block (the branch interface tells the verifier and passes
    which operands go where).
  }];
}

class CF_Op<string mnemonic, list<Trait> traits = []> : Op<CF_Dialect, mnemonic, traits>;

def CF_BranchOp : CF_Op<"br", [Pure, Terminator]> {
  let summary = "Unconditional branch";
  let description = [{
    Jumps to `dest`, passing `destOperands` as the block's arguments:

    ```mlir
    cf.br ^bb3(%0, %1 : i32, f32)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$destOperands);
  let successors = (successor AnySuccessor:$dest);
  let successorOperands = ["destOperands"];
  let assemblyFormat = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict";
}

def CF_CondBranchOp : CF_Op<"cond_br", [AttrSizedOperandSegments, Pure, Terminator]> {
  let summary = "Conditional branch on an i1";
  let description = [{
    Jumps to `trueDest` if `condition` is true and to `falseDest` otherwise, each with
    its own operands. A constant condition canonicalizes to `cf.br`.

    ```mlir
    cf.cond_br %c, ^bb1(%x : i32), ^bb2
    ```
  }];
  let arguments = (ins I1:$condition, Variadic<AnyType>:$trueDestOperands, Variadic<AnyType>:$falseDestOperands,
                   OptionalAttr<DenseI32ArrayAttr>:$branch_weights);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let successorOperands = ["trueDestOperands", "falseDestOperands"];
  let hasCanonicalizer = 1;
  let assemblyFormat = [{
    $condition (`weights` `(` $branch_weights^ `)`)? `,`
    $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`
    $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)?
    attr-dict
  }];
}

def CF_AssertOp : CF_Op<"assert"> {
  let summary = "Aborts with a message when the condition is false";
  let arguments = (ins I1:$arg, StrAttr:$msg);
  let hasCanonicalizer = 1;
  let assemblyFormat = "$arg `,` $msg attr-dict";
}
