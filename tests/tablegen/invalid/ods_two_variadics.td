include "OpBase.td"
def T_Dialect : Dialect { let name = "t"; }
def T_PackOp : Op<T_Dialect, "pack"> {
  let arguments = (ins Variadic<AnyType>:$a, Variadic<AnyType>:$b);
}
