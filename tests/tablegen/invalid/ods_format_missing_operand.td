include "OpBase.td"
def T_Dialect : Dialect { let name = "t"; }
def T_AddOp : Op<T_Dialect, "add", [Pure]> {
  let arguments = (ins I32:$lhs, I32:$rhs);
  let results = (outs I32:$result);
  let assemblyFormat = "$lhs attr-dict `:` type($result)";
}
