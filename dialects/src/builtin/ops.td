//===- ops.td - the builtin dialect -------------------------------------------===//

include "OpBase.td"

def Builtin_Dialect : Dialect {
  let name = "builtin";
  let summary = "Modules and conversion casts";
  let description = [{
    The ops every pipeline needs: `builtin.module`, the top-level container, and
    `builtin.unrealized_conversion_cast`, which bridges two type systems while a
    conversion is under way.
  }];
}

class Builtin_Op<string mnemonic, list<Trait> traits = []> : Op<Builtin_Dialect, mnemonic, traits>;

def Builtin_ModuleOp : Builtin_Op<"module", [IsolatedFromAbove, SymbolTable, NoTerminator, GraphRegion, SingleBlock,
                                            DefaultDialect<"builtin">]> {
  let summary = "A top-level container of ops (a symbol table)";
  let description = [{
    One block of ops with no terminator, optionally named:

    ```mlir
    module @kernels attributes {gpu.container} {
      func.func @f() { return }
    }
    ```
  }];
  let arguments = (ins OptionalAttr<SymbolNameAttr>:$sym_name, OptionalAttr<StrAttr>:$sym_visibility);
  let regions = (region SizedRegion<1>:$bodyRegion);
  let hasCustomAssemblyFormat = 1;
}

def Builtin_UnrealizedConversionCastOp : Builtin_Op<"unrealized_conversion_cast", [Pure]> {
  let summary = "A cast between types of two dialects during a conversion";
  let description = [{
    Stands for a conversion not yet materialized; a finished conversion leaves none.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  let hasVerifier = 1;
  let assemblyFormat = "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict";
}
