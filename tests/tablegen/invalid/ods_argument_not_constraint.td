include "OpBase.td"
def T_Dialect : Dialect { let name = "t"; }
def T_BadOp : Op<T_Dialect, "bad"> {
  let arguments = (ins Pure:$x);
}
