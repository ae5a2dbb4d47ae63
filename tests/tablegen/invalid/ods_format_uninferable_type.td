include "OpBase.td"
def T_Dialect : Dialect { let name = "t"; }
def T_CastOp : Op<T_Dialect, "cast"> {
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}
