// A type parameter must be a TypeParameter (TypeParam, StringParam, ...), not an op constraint.
include "OpBase.td"

def T_Dialect : Dialect {
  let name = "t";
}

def T_BoxType : TypeDef<T_Dialect, "box"> {
  let summary = "A box around a value";
  let parameters = (ins I32:$width);
}
