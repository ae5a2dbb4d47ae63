//===- ops.td - the func dialect ----------------------------------------------===//

include "OpBase.td"

def Func_Dialect : Dialect {
  let name = "func";
  let summary = "Functions, calls and returns";
  let description = [{
    `func.func` defines a function (a symbol with a body region, or a declaration
    without one), `func.call` calls one by name and `func.return` ends its body. Inside a
    function, `func.` may be left out of op names (`return`, `call`), as in MLIR.
  }];
}

class Func_Op<string mnemonic, list<Trait> traits = []> : Op<Func_Dialect, mnemonic, traits>;

def Func_FuncOp : Func_Op<"func", [IsolatedFromAbove, Symbol, DefaultDialect<"func">]> {
  let summary = "A function with a body (or a declaration without one)";
  let description = [{
    ```mlir
    func.func @axpy(%a: f32, %x: f32, %y: f32) -> f32 {
      %0 = arith.mulf %a, %x : f32
      %1 = arith.addf %0, %y : f32
      return %1 : f32
    }
    func.func private @ext(i32) -> i32
    ```
    The entry block's arguments must match `function_type`'s inputs.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, FunctionTypeAttr:$function_type, OptionalAttr<StrAttr>:$sym_visibility,
                   OptionalAttr<DictArrayAttr>:$arg_attrs, OptionalAttr<DictArrayAttr>:$res_attrs, OptionalAttr<UnitAttr>:$no_inline);
  let regions = (region AnyRegion:$body);
  let callableRegion = "body";
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
  let printGuardFn = "can_print_func";
}

def Func_ReturnOp : Func_Op<"return", [Pure, HasParent<"func.func">, ReturnLike, Terminator]> {
  let summary = "Returns from a function";
  let description = [{
    Its operands must match the enclosing function's result types.
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let hasVerifier = 1;
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

def Func_CallOp : Func_Op<"call"> {
  let summary = "Calls a function by symbol";
  let description = [{
    ```mlir
    %r = func.call @ext(%x) : (i32) -> i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands, OptionalAttr<DictArrayAttr>:$arg_attrs,
                   OptionalAttr<DictArrayAttr>:$res_attrs, OptionalAttr<UnitAttr>:$no_inline);
  let results = (outs Variadic<AnyType>:$results);
  let calleeAttr = "callee";
  let assemblyFormat = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}
