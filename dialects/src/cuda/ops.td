//===- ops.td - the cuda dialect ----------------------------------------------===//

include "OpBase.td"

def Cuda_Dialect : Dialect {
  let name = "cuda";
  let hasOperationAttrVerify = 1;
  let summary = "CUDA C++ device code, close to the source";
  let description = [{
    The frontend's output, together with the standard dialects: functions are
    `func.func` (a kernel carries the unit attribute `cuda.kernel`, and `__launch_bounds__`
    is `cuda.launch_bounds = array<i32: maxThreads[, minBlocks]>`), calls `func.call`, a
    function's own returns `func.return`. This dialect holds pointers with address spaces, arrays and structs, variables in memory,
    GPU operations, and the control flow C has that `scf` does not express (loops with
    `break`/`continue`, `switch`, `return` from any depth). Scalars are the builtin
    signless types (`i32`, `i64`, `f32`, `i1` for `bool`): C arithmetic, comparisons,
    constants and the numeric conversions the C++ rules imply are `arith` ops, which
    carry the signedness (`arith.divsi`, `arith.extui`, `arith.cmpi ult`). What stays here
    is what touches pointers: `cuda.cast` between pointer types and between pointers and
    integers, `cuda.ptr_add`, `cuda.ptr_diff`, `cuda.ptr_cmp`. Every variable is a
    `cuda.var` in memory, read and written with `cuda.load`/`cuda.store` (promoted to SSA
    values by the lowering). The split is described in `docs/architecture.md`.

    Types (dialect types, written in full so that each is self-describing):
    - `!cuda.ptr<T>` (generic) and `!cuda.ptr<T, global|shared|constant|local>`;
    - `!cuda.array<N x T>`;
    - `!cuda.struct<"name", {T1, T2, ...}>` (`align N` after the fields when declared with
      `__align__`), or `!cuda.struct<"name">` for a reference inside its own fields.

    `cuprite opt --irdl-compatible` prints them in MLIR's
    parameter syntax (the types below), which mlir-opt reads with this dialect loaded from
    its IRDL; the parser reads both spellings.
  }];
}

def Cuda_PtrType : TypeDef<Cuda_Dialect, "ptr"> {
  let summary = "A pointer into an address space";
  let description = [{
    `!cuda.ptr<f32, global>`; in parameter syntax `!cuda.ptr<f32, "global">`, with
    `"generic"` for the generic address space (`!cuda.ptr<f32>`).
  }];
  let parameters = (ins TypeParam:$pointee, StringParam:$space);
}

def Cuda_ArrayType : TypeDef<Cuda_Dialect, "array"> {
  let summary = "A C array of a fixed length";
  let description = [{
    `!cuda.array<4 x f32>`; in parameter syntax `!cuda.array<4 : i64, f32>`.
  }];
  let parameters = (ins IntegerParam:$size, TypeParam:$element);
}

def Cuda_StructType : TypeDef<Cuda_Dialect, "struct"> {
  let summary = "A C struct or class: its name, field types and declared alignment";
  let description = [{
    `!cuda.struct<"float2", {f32, f32} align 8>`; in parameter syntax
    `!cuda.struct<"float2", [f32, f32], 8 : i64>`, with alignment 0 when the struct has no
    `__align__` larger than its fields'.
  }];
  let parameters = (ins StringParam:$name, TypeArrayParam:$fields, IntegerParam:$align);
}

def Cuda_StructRefType : TypeDef<Cuda_Dialect, "struct_ref"> {
  let summary = "A struct named inside its own fields (through a pointer)";
  let description = [{
    `!cuda.struct<"node">` inside `!cuda.struct<"node", {i32, !cuda.ptr<!cuda.struct<"node">>}>`;
    in parameter syntax `!cuda.struct_ref<"node">`.
  }];
  let parameters = (ins StringParam:$name);
}

class Cuda_Op<string mnemonic, list<Trait> traits = []> : Op<Cuda_Dialect, mnemonic, traits>;

def CudaPtr : Type<[{ crate::cuda::types::is_ptr($_ctx, $_self) }], "cuda pointer", "@cuda::@ptr">;
def CudaScalar : Type<[{ crate::cuda::types::is_scalar($_ctx, $_self) }], "integer, float or cuda pointer", "any">;
def CudaInt : Type<[{ ::cuprite_ir::ods::is_int($_ctx, $_self) }], "integer", "!builtin.integer">;

def Cuda_CmpKind : I32EnumAttr<"CmpKind", "pointer comparison", [
  EnumCase<"eq", 0>, EnumCase<"ne", 1>, EnumCase<"lt", 2>, EnumCase<"le", 3>, EnumCase<"gt", 4>,
  EnumCase<"ge", 5>]>;
def Cuda_CastKind : I32EnumAttr<"CastKind", "pointer conversion", [
  EnumCase<"ptr_cast", 0>, EnumCase<"ptr_to_int", 1>, EnumCase<"int_to_ptr", 2>, EnumCase<"array_decay", 3>]>;
def Cuda_Space : I32EnumAttr<"Space", "address space", [
  EnumCase<"generic", 0>, EnumCase<"global", 1>, EnumCase<"shared", 3>, EnumCase<"constant", 4>,
  EnumCase<"local", 5>]>;
def Cuda_Special : I32EnumAttr<"SpecialReg", "special register", [
  EnumCase<"tid_x", 0>, EnumCase<"tid_y", 1>, EnumCase<"tid_z", 2>,
  EnumCase<"ntid_x", 3>, EnumCase<"ntid_y", 4>, EnumCase<"ntid_z", 5>,
  EnumCase<"ctaid_x", 6>, EnumCase<"ctaid_y", 7>, EnumCase<"ctaid_z", 8>,
  EnumCase<"nctaid_x", 9>, EnumCase<"nctaid_y", 10>, EnumCase<"nctaid_z", 11>,
  EnumCase<"warpsize", 12>, EnumCase<"laneid", 13>, EnumCase<"clock", 14>, EnumCase<"clock64", 15>]>;
def Cuda_AtomicKind : I32EnumAttr<"AtomicKind", "atomic read-modify-write operation", [
  EnumCase<"add", 0>, EnumCase<"sub", 1>, EnumCase<"exch", 2>, EnumCase<"min", 3>, EnumCase<"max", 4>,
  EnumCase<"inc", 5>, EnumCase<"dec", 6>, EnumCase<"and", 7>, EnumCase<"or", 8>, EnumCase<"xor", 9>,
  EnumCase<"umin", 10>, EnumCase<"umax", 11>]>;
def Cuda_ShflMode : I32EnumAttr<"ShflMode", "shuffle mode", [
  EnumCase<"idx", 0>, EnumCase<"up", 1>, EnumCase<"down", 2>, EnumCase<"bfly", 3>]>;
def Cuda_VoteMode : I32EnumAttr<"VoteMode", "vote mode", [
  EnumCase<"all", 0>, EnumCase<"any", 1>, EnumCase<"uni", 2>, EnumCase<"ballot", 3>]>;
def Cuda_ReduxKind : I32EnumAttr<"ReduxKind", "warp reduction", [
  EnumCase<"add", 0>, EnumCase<"umin", 1>, EnumCase<"umax", 2>, EnumCase<"smin", 3>, EnumCase<"smax", 4>,
  EnumCase<"and", 5>, EnumCase<"or", 6>, EnumCase<"xor", 7>]>;
def Cuda_MatchMode : I32EnumAttr<"MatchMode", "warp match mode", [EnumCase<"any", 0>, EnumCase<"all", 1>]>;
def Cuda_BarrierKind : I32EnumAttr<"BarrierKind", "barrier", [
  EnumCase<"sync", 0>, EnumCase<"count", 1>, EnumCase<"and", 2>, EnumCase<"or", 3>, EnumCase<"warp", 4>]>;
def Cuda_FenceScope : I32EnumAttr<"FenceScope", "memory scope of a fence or an atomic", [
  EnumCase<"block", 0>, EnumCase<"device", 1>, EnumCase<"system", 2>]>;

//===----------------------------------------------------------------------------===//
// Functions and globals
//===----------------------------------------------------------------------------===//

def Cuda_ReturnOp : Cuda_Op<"return", [Terminator, ReturnLike]> {
  let summary = "Returns from the enclosing function from inside a `cuda` construct's region";
  let description = [{
    A function's own blocks end in `func.return`; a `return` inside a `cuda.if`,
    `cuda.loop` or `cuda.switch` is `cuda.return` (`lower-cuda-control-flow` turns it into
    `func.return` once the construct's blocks are the function's).
  }];
  let arguments = (ins Variadic<AnyType>:$value);
  let assemblyFormat = "attr-dict ($value^ `:` type($value))?";
}

def Cuda_TexOp : Cuda_Op<"tex", [AttrSizedOperandSegments]> {
  let summary = "A texture fetch through a texture object (`tex1Dfetch`, `tex2D`, ...)";
  let description = [{
    `texture` is the texture object (`cudaTextureObject_t`), `layer` a layered texture's
    layer, `coords` the coordinates in PTX's order: `1d` (x; an integer for `tex1Dfetch`), `2d` (x, y), `3d`
    and `cube` (x, y, z), `a1d` (layer, x), `a2d` (layer, x, y); `level` adds the
    mipmap level last. The four results are the texel's channels, `f32` or `i32`
    (read as signed integers with `signed`, else unsigned).

    ```mlir
    %r:4 = cuda.tex "2d"(%t, %x, %y) : (i64, f32, f32) -> (f32, f32, f32, f32)
    ```
  }];
  let arguments = (ins StrAttr:$geom, I64:$texture, Optional<I32>:$layer, Variadic<AnyType>:$coords,
                   OptionalAttr<UnitAttr>:$level, OptionalAttr<UnitAttr>:$signed);
  let results = (outs Variadic<AnyType>:$texel);
  let assemblyFormat = "$geom `(` $texture (`layer` $layer^)? `,` $coords `)` attr-dict `:` functional-type(operands, results)";
}

def Cuda_IntrinsicOp : Cuda_Op<"intrinsic"> {
  let summary = "Calls a function the compiler implements (math library, integer intrinsics)";
  let description = [{
    The functions declared without a body in cuprite's built-in headers (`sqrtf`,
    `__popc`, `__fdividef`, ...), by name, after overload resolution:

    ```mlir
    %r = cuda.intrinsic "sqrtf"(%x) : (f32) -> f32
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$name `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def Cuda_GlobalOp : Cuda_Op<"global", [Symbol]> {
  let summary = "A `__device__`, `__constant__` or `__shared__` variable at namespace scope";
  let description = [{
    ```mlir
    cuda.global constant @coeffs : !cuda.array<4 x f32> = [1.0 : f32, 2.0 : f32, 3.0 : f32, 4.0 : f32]
    cuda.global global @counter : i32
    ```
    `init` is the constant initializer (scalars, or arrays of them); none means zero.
    `managed` marks a `__managed__` variable (unified memory, in global space).
    `readonly` marks a const-qualified scalar or array of scalars with an initializer: C++
    forbids writing it, so its loads may be folded to the initializer's values.
  }];
  let arguments = (ins Cuda_Space:$space, SymbolNameAttr:$sym_name, TypeAttr:$type, OptionalAttr<AnyAttr>:$init,
                   OptionalAttr<UnitAttr>:$managed, OptionalAttr<UnitAttr>:$readonly);
  let assemblyFormat = "$space $sym_name attr-dict `:` $type (`=` $init^)?";
}

def Cuda_AddressOfOp : Cuda_Op<"addressof", [Pure]> {
  let summary = "The address of a `cuda.global`";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs CudaPtr:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------------===//
// Values and memory
//===----------------------------------------------------------------------------===//

def Cuda_NullOp : Cuda_Op<"null", [Pure]> {
  let summary = "The null pointer";
  let results = (outs CudaPtr:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Cuda_VarOp : Cuda_Op<"var"> {
  let summary = "A variable: per thread in `local`, per block in `shared` space";
  let description = [{
    The result's pointer type gives the variable's type and space:

    ```mlir
    %i = cuda.var "i" : !cuda.ptr<i32, local>
    %tile = cuda.var "tile" : !cuda.ptr<!cuda.array<256 x f32>, shared>
    ```
    With `dynamic`, a `extern __shared__` array: the block's dynamic shared memory.
  }];
  let arguments = (ins StrAttr:$name, OptionalAttr<UnitAttr>:$dynamic, OptionalAttr<I32Attr>:$align);
  let results = (outs CudaPtr:$addr);
  let assemblyFormat = "$name attr-dict `:` type($addr)";
}

def Cuda_LoadOp : Cuda_Op<"load"> {
  let summary = "Reads memory";
  let description = [{
    `cache` is a global load's cache operator, from the `__ldg` family: `nc` (`__ldg`:
    the read-only path), `ca`, `cg`, `cs`, `lu`, `cv`; the address must then point to
    global memory.
  }];
  let arguments = (ins CudaPtr:$addr, OptionalAttr<UnitAttr>:$volatile, OptionalAttr<StrAttr>:$cache);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$addr attr-dict `:` type($addr) `->` type($result)";
}

def Cuda_StoreOp : Cuda_Op<"store"> {
  let summary = "Writes memory";
  let description = [{
    `cache` is a global store's cache operator, from the `__stcs` family: `wb`, `cg`,
    `cs`, `wt`; the address must then point to global memory.
  }];
  let arguments = (ins AnyType:$value, CudaPtr:$addr, OptionalAttr<UnitAttr>:$volatile, OptionalAttr<StrAttr>:$cache);
  let assemblyFormat = "$value `,` $addr attr-dict `:` type($value) `,` type($addr)";
}

def Cuda_PtrAddOp : Cuda_Op<"ptr_add", [Pure, AllTypesMatch<["base", "result"]>]> {
  let summary = "Pointer arithmetic: `base + offset` elements (the offset sign-extended to 64 bits)";
  let arguments = (ins CudaPtr:$base, CudaInt:$offset);
  let results = (outs CudaPtr:$result);
  let assemblyFormat = "$base `,` $offset attr-dict `:` type($base) `,` type($offset)";
}

def Cuda_PtrDiffOp : Cuda_Op<"ptr_diff", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Pointer difference in elements";
  let arguments = (ins CudaPtr:$lhs, CudaPtr:$rhs);
  let results = (outs CudaInt:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
}

def Cuda_MemberAddrOp : Cuda_Op<"member_addr", [Pure]> {
  let summary = "The address of a struct's field, by index";
  let arguments = (ins CudaPtr:$base, I32Attr:$index);
  let results = (outs CudaPtr:$result);
  let assemblyFormat = "$base `[` $index `]` attr-dict `:` type($base) `->` type($result)";
}

//===----------------------------------------------------------------------------===//
// Pointer comparison and conversion
//===----------------------------------------------------------------------------===//

def Cuda_PtrCmpOp : Cuda_Op<"ptr_cmp", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Comparison of two pointers (their addresses, unsigned)";
  let description = [{
    Integer and float comparisons are `arith.cmpi`/`arith.cmpf`; this is C's `==`, `!=`,
    `<`, `<=`, `>`, `>=` on pointers of one type.

    ```mlir
    %b = cuda.ptr_cmp lt, %p, %q : !cuda.ptr<f32, global>
    ```
  }];
  let arguments = (ins Cuda_CmpKind:$kind, CudaPtr:$lhs, CudaPtr:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$kind `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Cuda_CastOp : Cuda_Op<"cast", [Pure]> {
  let summary = "A conversion that involves a pointer";
  let description = [{
    Between pointer types (`ptr_cast`: another pointee or address space; `array_decay`:
    an array's address to its first element's), and between pointers and `i64`
    (`ptr_to_int`, `int_to_ptr`). Numeric conversions are `arith` casts.

    ```mlir
    %p = cuda.cast ptr_cast %q : !cuda.ptr<f32, global> to !cuda.ptr<f32>
    ```
  }];
  let arguments = (ins Cuda_CastKind:$kind, AnyType:$source);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$kind $source attr-dict `:` type($source) `to` type($result)";
}

//===----------------------------------------------------------------------------===//
// GPU operations
//===----------------------------------------------------------------------------===//

def Cuda_SpecialOp : Cuda_Op<"special", [Pure]> {
  let summary = "A thread-index builtin (`threadIdx.x`, `blockDim.y`, `warpSize`, ...)";
  let arguments = (ins Cuda_Special:$reg);
  let results = (outs CudaInt:$result);
  let assemblyFormat = "$reg attr-dict `:` type($result)";
}

def Cuda_BarrierOp : Cuda_Op<"barrier"> {
  let summary = "`__syncthreads()` and its `_count`/`_and`/`_or` forms, `__syncwarp(mask)`";
  let arguments = (ins Cuda_BarrierKind:$kind, Optional<AnyType>:$operand);
  let results = (outs Variadic<AnyType>:$result);
  let assemblyFormat = "$kind (`(` $operand^ `:` type($operand) `)`)? attr-dict (`->` type($result)^)?";
}

def Cuda_FenceOp : Cuda_Op<"fence"> {
  let summary = "`__threadfence_block()`, `__threadfence()`, `__threadfence_system()`";
  let arguments = (ins Cuda_FenceScope:$scope);
  let assemblyFormat = "$scope attr-dict";
}

def Cuda_AtomicOp : Cuda_Op<"atomic", [AllTypesMatch<["value", "result"]>]> {
  let summary = "An atomic read-modify-write; the result is the old value";
  let description = [{
    `atomicAdd` and its family. `scope` is absent for the device-wide forms, `block` for
    `atomicAdd_block` and the like, `system` for `atomicAdd_system` (atomic with respect to
    the host and other GPUs too).
  }];
  let arguments = (ins Cuda_AtomicKind:$kind, CudaPtr:$addr, CudaScalar:$value, OptionalAttr<Cuda_FenceScope>:$scope);
  let results = (outs CudaScalar:$result);
  let assemblyFormat = "$kind $addr `,` $value attr-dict `:` type($addr) `,` type($value)";
}

def Cuda_AtomicCasOp : Cuda_Op<"atomic_cas", [AllTypesMatch<["compare", "value", "result"]>]> {
  let summary = "`atomicCAS`: stores `value` if memory holds `compare`; the result is the old value";
  let description = [{ `scope` as for `cuda.atomic` (`atomicCAS_block`, `atomicCAS_system`). }];
  let arguments = (ins CudaPtr:$addr, CudaScalar:$compare, CudaScalar:$value, OptionalAttr<Cuda_FenceScope>:$scope);
  let results = (outs CudaScalar:$result);
  let assemblyFormat = "$addr `,` $compare `,` $value attr-dict `:` type($addr) `,` type($value)";
}

def Cuda_ShflOp : Cuda_Op<"shfl", [AllTypesMatch<["value", "result"]>]> {
  let summary = "`__shfl_sync` and friends: a value from another lane of the warp";
  let arguments = (ins Cuda_ShflMode:$mode, I32:$mask, CudaScalar:$value, I32:$lane, I32:$width);
  let results = (outs CudaScalar:$result);
  let assemblyFormat = "$mode $mask `,` $value `,` $lane `,` $width attr-dict `:` type($value)";
}

def Cuda_VoteOp : Cuda_Op<"vote"> {
  let summary = "`__all_sync`, `__any_sync`, `__uni_sync`, `__ballot_sync`";
  let arguments = (ins Cuda_VoteMode:$mode, I32:$mask, I1:$predicate);
  let results = (outs CudaInt:$result);
  let assemblyFormat = "$mode $mask `,` $predicate attr-dict `:` type($result)";
}

def Cuda_ReduxOp : Cuda_Op<"redux"> {
  let summary = "`__reduce_{add,min,max,and,or,xor}_sync`: the reduction over the member lanes (sm_80)";
  let arguments = (ins Cuda_ReduxKind:$kind, I32:$mask, I32:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$kind $mask `,` $value attr-dict";
}

def Cuda_MatchOp : Cuda_Op<"match"> {
  let summary = "`__match_any_sync` (the member lanes holding this lane's value) and `__match_all_sync` (the mask if all hold it, else 0)";
  let arguments = (ins Cuda_MatchMode:$mode, I32:$mask, CudaScalar:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$mode $mask `,` $value attr-dict `:` type($value)";
}

def Cuda_AsmOp : Cuda_Op<"asm"> {
  let summary = "An inline `asm` statement, emitted verbatim";
  let description = [{
    `constraints` lists the outputs' then the inputs' constraint strings, then the
    clobbers as `~{...}`, comma-separated (LLVM's convention).
  }];
  let arguments = (ins StrAttr:$template, StrAttr:$constraints, Variadic<AnyType>:$operands,
                   OptionalAttr<UnitAttr>:$side_effects);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$template `,` $constraints `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

//===----------------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------------===//

def Cuda_IfOp : Cuda_Op<"if", [RecursiveMemoryEffects, DefaultDialect<"cuda">]> {
  let summary = "If-then-else, with results for `?:`, `&&` and `||`";
  let description = [{
    ```mlir
    cuda.if %c {
      ...
    } else {
      ...
    }
    %r = cuda.if %c -> i32 {
      cuda.yield %a : i32
    } else {
      cuda.yield %b : i32
    }
    ```
    A region may also end with `cuda.break`, `cuda.continue` or `cuda.return`. The
    frontend gives each region one block; after `convert-scf-to-cf` a region can be a
    CFG of several (`cf` branches between them), left at any of its blocks' `cuda.yield`,
    `break`, `continue` or `return` (the same holds for `cuda.loop` and `cuda.switch`).
  }];
  let arguments = (ins I1:$condition);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$thenRegion, AnyRegion:$elseRegion);
  let assemblyFormat = "$condition (`->` type($results)^)? $thenRegion `else` $elseRegion attr-dict";
}

def Cuda_LoopOp : Cuda_Op<"loop", [RecursiveMemoryEffects, DefaultDialect<"cuda">]> {
  let summary = "`for`, `while` and `do`-`while` loops";
  let description = [{
    Each iteration runs `cond` (ending with `cuda.condition`), then if it holds `body`,
    then `step`; with `do_while`, the first test is skipped. `cuda.break` in the body
    leaves the loop, `cuda.continue` goes to `step`. `unroll` is `#pragma unroll`'s count
    (0: unroll fully). The frontend emits `scf.while` instead where nothing leaves the
    loop early (no `break`, `continue` or `return` inside).

    ```mlir
    cuda.loop cond {
      %c = arith.cmpi slt, %i, %n : i32
      cuda.condition %c
    } body {
      ...
    } step {
      ...
    }
    ```
  }];
  let arguments = (ins OptionalAttr<UnitAttr>:$do_while, OptionalAttr<I32Attr>:$unroll);
  let regions = (region AnyRegion:$cond, AnyRegion:$body, AnyRegion:$step);
  let assemblyFormat = "`cond` $cond `body` $body `step` $step attr-dict";
}

def Cuda_SwitchOp : Cuda_Op<"switch", [RecursiveMemoryEffects, DefaultDialect<"cuda">]> {
  let summary = "A `switch`: one region per case label, in source order";
  let description = [{
    `cases` holds each region's label value; `default_index` the default's region (if
    any). Control enters at the matching region and falls through to the next one at its
    `cuda.yield`; `cuda.break` leaves the switch.
  }];
  let arguments = (ins CudaInt:$value, ArrayAttr:$cases, OptionalAttr<I32Attr>:$default_index);
  let regions = (region VariadicRegion<AnyRegion>:$regions);
  let assemblyFormat = "$value `:` type($value) $cases attr-dict-with-keyword $regions";
}

def Cuda_ConditionOp : Cuda_Op<"condition", [Terminator, HasParent<"cuda.loop">]> {
  let summary = "Ends a loop's test";
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

def Cuda_YieldOp : Cuda_Op<"yield", [Pure, Terminator, ParentOneOf<["cuda.if", "cuda.loop", "cuda.switch"]>]> {
  let summary = "Ends a region normally, with the `cuda.if`'s results";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Cuda_BreakOp : Cuda_Op<"break", [Terminator]> {
  let summary = "Leaves the innermost loop or switch, or `levels` of them";
  let description = [{
    `levels` counts the enclosing `cuda.loop` and `cuda.switch` ops from the innermost (1,
    the default): the op leaves that many at once (a `goto` out of nested loops).
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$levels);
  let assemblyFormat = "attr-dict";
}

def Cuda_ContinueOp : Cuda_Op<"continue", [Terminator]> {
  let summary = "Goes to the innermost loop's step, or to that of the loop `levels` out";
  let description = [{
    `levels` counts the enclosing `cuda.loop` and `cuda.switch` ops from the innermost; the
    one it names must be a loop. Without it, the innermost loop (switches skipped).
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$levels);
  let assemblyFormat = "attr-dict";
}
