include "OpBase.td"
def T_Dialect : Dialect { let name = "t"; }
def T_NegOp : Op<T_Dialect, "neg"> {
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($input) `to` type($result)";
}
