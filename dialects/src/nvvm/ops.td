//===- ops.td - the nvvm dialect ----------------------------------------------===//

include "OpBase.td"

def Nvvm_Dialect : Dialect {
  let name = "nvvm";
  let summary = "LLVM-like SSA on a CFG, with NVVM's address spaces and intrinsics";
  let description = [{
    The level between `cuda` and `ptx`: functions whose bodies are basic blocks with block
    arguments (no structured control flow), signless integers (`i1` .. `i64`), `f16`/`f32`/
    `f64` and opaque pointers with NVPTX address spaces (`!llvm.ptr` generic, `!llvm.ptr<1>`
    global, `<3>` shared, `<4>` constant, `<5>` local). Signedness lives in the ops
    (`sdiv`/`udiv`, `icmp slt`/`ult`, `sext`/`zext`), as in LLVM. Address arithmetic is a
    byte offset (`nvvm.ptradd`, LLVM's `getelementptr i8`). GPU operations are ops of their
    own (`nvvm.sreg`, `nvvm.barrier`, `nvvm.shfl`, ...) and the math and bit intrinsics are
    `nvvm.intr` with a name from a fixed table (`sqrt.rn`, `rsqrt.approx`, `popc`, ...).
    The GPU optimizations run at this level.
  }];
  let hasConstantMaterializer = 1;
}

class Nvvm_Op<string mnemonic, list<Trait> traits = []> : Op<Nvvm_Dialect, mnemonic, traits>;

def Nvvm_FuncKind : I32EnumAttr<"FuncKind", "function kind", [EnumCase<"kernel", 0>, EnumCase<"device", 1>]>;
def Nvvm_ICmpPred : I32EnumAttr<"ICmpPredicate", "integer comparison", [
  EnumCase<"eq", 0>, EnumCase<"ne", 1>, EnumCase<"slt", 2>, EnumCase<"sle", 3>, EnumCase<"sgt", 4>,
  EnumCase<"sge", 5>, EnumCase<"ult", 6>, EnumCase<"ule", 7>, EnumCase<"ugt", 8>, EnumCase<"uge", 9>]>;
def Nvvm_FCmpPred : I32EnumAttr<"FCmpPredicate", "float comparison (o: ordered, false on NaN; u: unordered, true on NaN)", [
  EnumCase<"oeq", 0>, EnumCase<"one", 1>, EnumCase<"olt", 2>, EnumCase<"ole", 3>, EnumCase<"ogt", 4>,
  EnumCase<"oge", 5>, EnumCase<"ueq", 6>, EnumCase<"une", 7>, EnumCase<"ult", 8>, EnumCase<"ule", 9>,
  EnumCase<"ugt", 10>, EnumCase<"uge", 11>, EnumCase<"ord", 12>, EnumCase<"uno", 13>]>;
def Nvvm_Space : I32EnumAttr<"Space", "address space", [
  EnumCase<"generic", 0>, EnumCase<"global", 1>, EnumCase<"shared", 3>, EnumCase<"constant", 4>,
  EnumCase<"local", 5>]>;
def Nvvm_SReg : I32EnumAttr<"SpecialReg", "special register", [
  EnumCase<"tid_x", 0>, EnumCase<"tid_y", 1>, EnumCase<"tid_z", 2>,
  EnumCase<"ntid_x", 3>, EnumCase<"ntid_y", 4>, EnumCase<"ntid_z", 5>,
  EnumCase<"ctaid_x", 6>, EnumCase<"ctaid_y", 7>, EnumCase<"ctaid_z", 8>,
  EnumCase<"nctaid_x", 9>, EnumCase<"nctaid_y", 10>, EnumCase<"nctaid_z", 11>,
  EnumCase<"warpsize", 12>, EnumCase<"laneid", 13>, EnumCase<"clock", 14>, EnumCase<"clock64", 15>]>;
def Nvvm_RmwKind : I32EnumAttr<"RmwKind", "atomic read-modify-write operation", [
  EnumCase<"add", 0>, EnumCase<"fadd", 1>, EnumCase<"exch", 2>, EnumCase<"smin", 3>, EnumCase<"smax", 4>,
  EnumCase<"umin", 5>, EnumCase<"umax", 6>, EnumCase<"inc", 7>, EnumCase<"dec", 8>, EnumCase<"and", 9>,
  EnumCase<"or", 10>, EnumCase<"xor", 11>]>;
def Nvvm_Scope : I32EnumAttr<"Scope", "memory scope", [
  EnumCase<"cta", 0>, EnumCase<"gpu", 1>, EnumCase<"sys", 2>]>;
def Nvvm_ShflMode : I32EnumAttr<"ShflMode", "shuffle mode", [
  EnumCase<"idx", 0>, EnumCase<"up", 1>, EnumCase<"down", 2>, EnumCase<"bfly", 3>]>;
def Nvvm_VoteMode : I32EnumAttr<"VoteMode", "vote mode", [
  EnumCase<"all", 0>, EnumCase<"any", 1>, EnumCase<"uni", 2>, EnumCase<"ballot", 3>]>;
def Nvvm_ReduxKind : I32EnumAttr<"ReduxKind", "warp reduction", [
  EnumCase<"add", 0>, EnumCase<"umin", 1>, EnumCase<"umax", 2>, EnumCase<"smin", 3>, EnumCase<"smax", 4>,
  EnumCase<"and", 5>, EnumCase<"or", 6>, EnumCase<"xor", 7>]>;
def Nvvm_MatchMode : I32EnumAttr<"MatchMode", "warp match mode", [EnumCase<"any", 0>, EnumCase<"all", 1>]>;
def Nvvm_BarrierKind : I32EnumAttr<"BarrierKind", "barrier", [
  EnumCase<"sync", 0>, EnumCase<"popc", 1>, EnumCase<"and", 2>, EnumCase<"or", 3>, EnumCase<"warp", 4>]>;

//===----------------------------------------------------------------------------===//
// Functions, calls and globals
//===----------------------------------------------------------------------------===//

def Nvvm_FuncOp : Nvvm_Op<"func", [IsolatedFromAbove, Symbol, DefaultDialect<"nvvm">]> {
  let summary = "A kernel or a device function";
  let description = [{
    ```mlir
    nvvm.func kernel @scale(%p: !llvm.ptr, %n: i32) attributes {maxntid = array<i32: 256>} {
      ...
      return
    }
    ```
    Kernel attributes: `maxntid` (`__launch_bounds__`' first argument), `minnctapersm` (its
    second), `maxnreg`. A device function with `inline` is inlined at `-O1` and up
    whatever its size; one with `noinline` never is.
  }];
  let arguments = (ins Nvvm_FuncKind:$kind, SymbolNameAttr:$sym_name, FunctionTypeAttr:$function_type,
                   OptionalAttr<StrAttr>:$sym_visibility, OptionalAttr<DictArrayAttr>:$arg_attrs,
                   OptionalAttr<DictArrayAttr>:$res_attrs, OptionalAttr<DenseI32ArrayAttr>:$maxntid,
                   OptionalAttr<I32Attr>:$minnctapersm, OptionalAttr<I32Attr>:$maxnreg);
  let regions = (region AnyRegion:$body);
  let callableRegion = "body";
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
  let printGuardFn = "can_print_func";
}

def Nvvm_ReturnOp : Nvvm_Op<"return", [Pure, Terminator, ReturnLike]> {
  let summary = "Returns from the function";
  let arguments = (ins Variadic<AnyType>:$value);
  let assemblyFormat = "attr-dict ($value^ `:` type($value))?";
}

def Nvvm_CallOp : Nvvm_Op<"call"> {
  let summary = "Calls a device function";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let calleeAttr = "callee";
  let assemblyFormat = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def Nvvm_GlobalOp : Nvvm_Op<"global", [Symbol]> {
  let summary = "A module-level variable in global, shared or constant space";
  let description = [{
    `size` bytes aligned to `align`; `init` (constant and global space) is an array of
    byte values (`array<i8: ...>`), zero-filled up to `size`. `extern` marks dynamic shared
    memory (`extern __shared__`), whose size is the launch's. `managed` marks unified memory
    (`__managed__`), global memory the host reaches too. `readonly` marks a variable nothing
    may write (a const-qualified C++ object with its initializer, as LLVM's `constant`
    globals): `fold-constant-loads` reads its loads from `init`.

    ```mlir
    nvvm.global shared @tile {align = 4 : i32, size = 1024 : i64}
    nvvm.global constant @coeffs {align = 4 : i32, size = 8 : i64, init = array<i8: 0, 0, -128, 63, 0, 0, 0, 64>}
    ```
  }];
  let arguments = (ins Nvvm_Space:$space, SymbolNameAttr:$sym_name, I64Attr:$size, I32Attr:$align,
                   OptionalAttr<AnyAttr>:$init, OptionalAttr<UnitAttr>:$extern, OptionalAttr<UnitAttr>:$managed,
                   OptionalAttr<UnitAttr>:$readonly);
  let assemblyFormat = "$space $sym_name attr-dict";
}

def Nvvm_AddressOfOp : Nvvm_Op<"addressof", [Pure]> {
  let summary = "The address of a global, in the global's space";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs AnyPtr:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------------===//

def Nvvm_BrOp : Nvvm_Op<"br", [Pure, Terminator]> {
  let summary = "Unconditional branch";
  let description = [{
    `unroll` on a loop's back edge is its `#pragma unroll` count (1: `#pragma unroll 1`,
    which PTX states as `.pragma "nounroll"`).
  }];
  let arguments = (ins Variadic<AnyType>:$destOperands, OptionalAttr<I32Attr>:$unroll);
  let successors = (successor AnySuccessor:$dest);
  let successorOperands = ["destOperands"];
  let assemblyFormat = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict";
}

def Nvvm_CondBrOp : Nvvm_Op<"cond_br", [AttrSizedOperandSegments, Pure, Terminator]> {
  let summary = "Conditional branch on an i1";
  let arguments = (ins I1:$condition, Variadic<AnyType>:$trueDestOperands, Variadic<AnyType>:$falseDestOperands);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let successorOperands = ["trueDestOperands", "falseDestOperands"];
  let assemblyFormat = [{
    $condition `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`
    $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict
  }];
  let hasCanonicalizer = 1;
}

def Nvvm_UnreachableOp : Nvvm_Op<"unreachable", [Terminator]> {
  let summary = "Control never reaches here (PTX `trap`)";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------------===//
// Constants and arithmetic
//===----------------------------------------------------------------------------===//

def Nvvm_ConstantOp : Nvvm_Op<"constant", [Pure, ConstantLike]> {
  let summary = "An integer or float constant";
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
}

def Nvvm_NullOp : Nvvm_Op<"null", [Pure]> {
  let summary = "The null pointer of a pointer type";
  let results = (outs AnyPtr:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

class Nvvm_IntBin<string mnemonic, string what, list<Trait> traits = []>
    : Nvvm_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType], traits)> {
  let summary = what;
  let arguments = (ins AnySignlessInteger:$lhs, AnySignlessInteger:$rhs);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
  let folderFn = "fold::fold_int_binary";
}

// Addition, subtraction, multiplication and left shift of C's signed integers carry `nsw`
// (no signed wrap: overflow is undefined in C, so the result is as if computed without
// wrapping), which loop strength reduction needs to move a sign extension across them.
class Nvvm_IntBinNsw<string mnemonic, string what, list<Trait> traits = []> : Nvvm_IntBin<mnemonic, what, traits> {
  let arguments = (ins AnySignlessInteger:$lhs, AnySignlessInteger:$rhs, OptionalAttr<UnitAttr>:$nsw);
  let assemblyFormat = "$lhs `,` $rhs (`nsw` $nsw^)? attr-dict `:` type($result)";
}

class Nvvm_FloatBin<string mnemonic, string what>
    : Nvvm_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = what;
  let description = [{
    IEEE, rounding to nearest even. `contract` allows fusing with a neighbouring
    multiply or add into an `fma` (C's default `-ffp-contract=fast` on the GPU, as nvcc);
    On f32 division, `approx` (`--use_fast_math`) selects `div.approx.f32` and `full`
    (`-prec-div=false`) `div.full.f32`, both within 2 ulp.
  }];
  let arguments = (ins AnyFloat:$lhs, AnyFloat:$rhs, OptionalAttr<UnitAttr>:$contract, OptionalAttr<UnitAttr>:$approx,
                   OptionalAttr<UnitAttr>:$full);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
  let folderFn = "fold::fold_float_binary";
}

def Nvvm_AddOp : Nvvm_IntBinNsw<"add", "Integer addition (wraps)", [Commutative]> {
  let hasCanonicalizer = 1;
}
def Nvvm_SubOp : Nvvm_IntBinNsw<"sub", "Integer subtraction (wraps)", []>;
def Nvvm_MulOp : Nvvm_IntBinNsw<"mul", "Integer multiplication (low half)", [Commutative]> {
  let hasCanonicalizer = 1;
}
def Nvvm_SdivOp : Nvvm_IntBin<"sdiv", "Signed division, rounding toward zero", []> {
  let hasCanonicalizer = 1;
}
def Nvvm_UdivOp : Nvvm_IntBin<"udiv", "Unsigned division", []> {
  let hasCanonicalizer = 1;
}
def Nvvm_SremOp : Nvvm_IntBin<"srem", "Signed remainder (sign of the dividend)", []> {
  let hasCanonicalizer = 1;
}
def Nvvm_UremOp : Nvvm_IntBin<"urem", "Unsigned remainder", []> {
  let hasCanonicalizer = 1;
}
def Nvvm_ShlOp : Nvvm_IntBinNsw<"shl", "Shift left", []> {
  let hasCanonicalizer = 1;
}
def Nvvm_LshrOp : Nvvm_IntBin<"lshr", "Logical shift right", []>;
def Nvvm_AshrOp : Nvvm_IntBin<"ashr", "Arithmetic shift right", []>;
def Nvvm_AndOp : Nvvm_IntBin<"and", "Bitwise and", [Commutative]> {
  let hasCanonicalizer = 1;
}
def Nvvm_OrOp : Nvvm_IntBin<"or", "Bitwise or", [Commutative]>;
def Nvvm_XorOp : Nvvm_IntBin<"xor", "Bitwise exclusive or", [Commutative]> {
  let hasCanonicalizer = 1;
}
def Nvvm_FaddOp : Nvvm_FloatBin<"fadd", "Float addition">;
def Nvvm_FsubOp : Nvvm_FloatBin<"fsub", "Float subtraction">;
def Nvvm_FmulOp : Nvvm_FloatBin<"fmul", "Float multiplication">;
def Nvvm_FdivOp : Nvvm_FloatBin<"fdiv", "Float division"> {
  let hasCanonicalizer = 1;
}
def Nvvm_FremOp : Nvvm_FloatBin<"frem", "Float remainder (C fmod)">;

def Nvvm_FNegOp : Nvvm_Op<"fneg", [Pure, SameOperandsAndResultType]> {
  let summary = "Float negation (flips the sign bit)";
  let arguments = (ins AnyFloat:$arg);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "$arg attr-dict `:` type($result)";
  let hasFolder = 1;
  let folderFn = "fold::fold_fneg";
}

def Nvvm_ICmpOp : Nvvm_Op<"icmp", [Pure, SameTypeOperands]> {
  let summary = "Integer or pointer comparison";
  let arguments = (ins Nvvm_ICmpPred:$predicate, AnyType:$lhs, AnyType:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasFolder = 1;
  let folderFn = "fold::fold_icmp";
}

def Nvvm_FCmpOp : Nvvm_Op<"fcmp", [Pure, SameTypeOperands]> {
  let summary = "Float comparison";
  let arguments = (ins Nvvm_FCmpPred:$predicate, AnyFloat:$lhs, AnyFloat:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Nvvm_SelectOp : Nvvm_Op<"select", [Pure, AllTypesMatch<["trueValue", "falseValue", "result"]>]> {
  let summary = "Chooses between two values on an i1";
  let arguments = (ins I1:$condition, AnyType:$trueValue, AnyType:$falseValue);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$condition `,` $trueValue `,` $falseValue attr-dict `:` type($result)";
  let hasFolder = 1;
  let folderFn = "fold::fold_select";
  let hasCanonicalizer = 1;
}

class Nvvm_Cast<string mnemonic, string what> : Nvvm_Op<mnemonic, [Pure]> {
  let summary = what;
  let arguments = (ins AnyType:$arg);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$arg attr-dict `:` type($arg) `to` type($result)";
  let hasFolder = 1;
  let folderFn = "fold::fold_cast";
}

def Nvvm_TruncOp : Nvvm_Cast<"trunc", "Integer truncation">;
def Nvvm_ZextOp : Nvvm_Cast<"zext", "Zero extension">;
def Nvvm_SextOp : Nvvm_Cast<"sext", "Sign extension"> {
  let hasCanonicalizer = 1;
}
def Nvvm_FptosiOp : Nvvm_Cast<"fptosi", "Float to signed integer, rounding toward zero">;
def Nvvm_FptouiOp : Nvvm_Cast<"fptoui", "Float to unsigned integer, rounding toward zero">;
def Nvvm_SitofpOp : Nvvm_Cast<"sitofp", "Signed integer to float, rounding to nearest even">;
def Nvvm_UitofpOp : Nvvm_Cast<"uitofp", "Unsigned integer to float, rounding to nearest even">;
def Nvvm_FpextOp : Nvvm_Cast<"fpext", "Float widening">;
def Nvvm_FptruncOp : Nvvm_Cast<"fptrunc", "Float narrowing, rounding to nearest even">;
def Nvvm_BitcastOp : Nvvm_Cast<"bitcast", "Reinterprets the bits (same width)">;
def Nvvm_PtrtointOp : Nvvm_Cast<"ptrtoint", "Pointer to integer">;
def Nvvm_InttoptrOp : Nvvm_Cast<"inttoptr", "Integer to pointer">;
def Nvvm_AddrspacecastOp : Nvvm_Cast<"addrspacecast", "Pointer between address spaces (cvta)">;

def Nvvm_IntrOp : Nvvm_Op<"intr", [Pure]> {
  let summary = "A math or bit intrinsic, by name";
  let description = [{
    The operation is named, with PTX's accuracy: `sqrt.rn`, `sqrt.approx`, `rsqrt.approx`,
    `rcp.rn`, `rcp.approx`, `div.approx`, `div.full`, `fma.rn`, `abs`, `min`, `max` (float:
    IEEE minNum/maxNum; integer: `smin` `smax` `umin` `umax`), `ex2.approx`, `lg2.approx`,
    `sin.approx`, `cos.approx`, `trunc`, `floor`, `ceil`, `rint`, `saturate`, `popc`, `clz`,
    `brev`, `mul24`, `umul24`, `mulhi`, `umulhi`, `copysign`, `prmt` (PTX's default mode),
    `shf.l.wrap`, `shf.r.wrap`, `shf.l.clamp`, `shf.r.clamp`, `dp4a.s32.s32`,
    `dp4a.u32.u32`. The verifier checks the name
    and the operand count; the types are those of the operands.

    ```mlir
    %r = nvvm.intr "sqrt.rn"(%x) : (f32) -> f32
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$operands);
  let results = (outs AnyType:$result);
  let hasVerifier = 1;
  let assemblyFormat = "$name `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

//===----------------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------------===//

def Nvvm_AllocaOp : Nvvm_Op<"alloca"> {
  let summary = "A per-thread stack slot of `size` bytes (local memory unless promoted)";
  let arguments = (ins I64Attr:$size, I32Attr:$align, OptionalAttr<StrAttr>:$name);
  let results = (outs AnyPtr:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasCanonicalizer = 1;
}

def Nvvm_PtrAddOp : Nvvm_Op<"ptradd", [Pure, AllTypesMatch<["base", "result"]>]> {
  let summary = "A pointer plus a signed byte offset (getelementptr i8)";
  let arguments = (ins AnyPtr:$base, AnySignlessInteger:$offset);
  let results = (outs AnyPtr:$result);
  let assemblyFormat = "$base `,` $offset attr-dict `:` type($base) `,` type($offset)";
  let hasCanonicalizer = 1;
  let folderFn = "fold::fold_ptradd";
}

def Nvvm_LoadOp : Nvvm_Op<"load"> {
  let summary = "Loads a value; the space is the pointer's";
  let description = [{
    `cache`: a global load's cache operator (`nc`, `ca`, `cg`, `cs`, `lu`, `cv`: PTX's
    `ld.global.nc`, `ld.global.cs`, ...).
  }];
  let arguments = (ins AnyPtr:$addr, I32Attr:$align, OptionalAttr<UnitAttr>:$volatile, OptionalAttr<UnitAttr>:$invariant,
                   OptionalAttr<StrAttr>:$cache);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$addr attr-dict `:` type($addr) `->` type($result)";
  let memoryEffectsFn = "load_effects";
}

def Nvvm_StoreOp : Nvvm_Op<"store"> {
  let summary = "Stores a value; the space is the pointer's";
  let description = [{
    `cache`: a global store's cache operator (`wb`, `cg`, `cs`, `wt`: `st.global.cs`, ...).
  }];
  let arguments = (ins AnyType:$value, AnyPtr:$addr, I32Attr:$align, OptionalAttr<UnitAttr>:$volatile,
                   OptionalAttr<StrAttr>:$cache);
  let assemblyFormat = "$value `,` $addr attr-dict `:` type($value) `,` type($addr)";
}

def Nvvm_AtomicRmwOp : Nvvm_Op<"atomicrmw", [AllTypesMatch<["value", "result"]>]> {
  let summary = "Atomic read-modify-write; returns the old value";
  let arguments = (ins Nvvm_RmwKind:$kind, AnyPtr:$addr, AnyType:$value, Nvvm_Scope:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$kind $addr `,` $value $scope attr-dict `:` type($addr) `,` type($value)";
}

def Nvvm_CmpXchgOp : Nvvm_Op<"cmpxchg", [AllTypesMatch<["compare", "value", "result"]>]> {
  let summary = "Atomic compare-and-swap; returns the old value";
  let arguments = (ins AnyPtr:$addr, AnyType:$compare, AnyType:$value, Nvvm_Scope:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$addr `,` $compare `,` $value $scope attr-dict `:` type($addr) `,` type($value)";
}

//===----------------------------------------------------------------------------===//
// GPU operations
//===----------------------------------------------------------------------------===//

def Nvvm_SRegOp : Nvvm_Op<"sreg", [Pure]> {
  let summary = "Reads a special register (`%tid.x`, `%ntid.x`, `%ctaid.x`, ...)";
  let arguments = (ins Nvvm_SReg:$reg);
  let results = (outs AnyInteger:$result);
  let assemblyFormat = "$reg attr-dict `:` type($result)";
}

def Nvvm_TexOp : Nvvm_Op<"tex"> {
  let summary = "`tex.<geom>.v4`: a texture fetch through a texture object";
  let description = [{
    Operands: the texture object (`i64`), then the coordinates in PTX's order (see
    `cuda.tex`), then the level with `level`. The four results are the channels; `kind` is
    their PTX type (`f32`, `s32`, `u32`).

    ```mlir
    %r:4 = nvvm.tex "2d"(%t, %x, %y) {kind = "f32"} : (i64, f32, f32) -> (f32, f32, f32, f32)
    ```
  }];
  let arguments = (ins StrAttr:$geom, StrAttr:$kind, Variadic<AnyType>:$operands, OptionalAttr<UnitAttr>:$level);
  let results = (outs Variadic<AnyType>:$texel);
  let assemblyFormat = "$geom `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def Nvvm_ActiveMaskOp : Nvvm_Op<"activemask"> {
  let summary = "`activemask.b32`: the lanes of the warp executing it (`__activemask()`)";
  let description = [{
    Not pure: its value depends on where it executes (two in different branches differ).
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Nvvm_BarrierOp : Nvvm_Op<"barrier"> {
  let summary = "A block barrier (`__syncthreads*`) or a warp barrier (`__syncwarp`)";
  let description = [{
    `sync`: `bar.sync 0`; `popc`/`and`/`or`: `bar.red` over `predicate` (the result is the
    count or the i1 reduced, as i32); `warp`: `bar.warp.sync` with the mask operand.
  }];
  let arguments = (ins Nvvm_BarrierKind:$kind, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$kind `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def Nvvm_FenceOp : Nvvm_Op<"fence"> {
  let summary = "A memory fence (`membar.cta|gl|sys`)";
  let arguments = (ins Nvvm_Scope:$scope);
  let assemblyFormat = "$scope attr-dict";
}

def Nvvm_ShflOp : Nvvm_Op<"shfl", [AllTypesMatch<["value", "result"]>]> {
  let summary = "`shfl.sync` on 32 bits; `clamp` is PTX's packed `c` operand";
  let arguments = (ins Nvvm_ShflMode:$mode, I32:$mask, AnyType:$value, I32:$lane, I32:$clamp);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$mode $mask `,` $value `,` $lane `,` $clamp attr-dict `:` type($value)";
}

def Nvvm_VoteOp : Nvvm_Op<"vote"> {
  let summary = "`vote.sync`: all/any/uni give an i1, ballot an i32";
  let arguments = (ins Nvvm_VoteMode:$mode, I32:$mask, I1:$predicate);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$mode $mask `,` $predicate attr-dict `:` type($result)";
}

def Nvvm_ReduxOp : Nvvm_Op<"redux"> {
  let summary = "`redux.sync`: a 32-bit integer reduction over the member lanes (sm_80)";
  let arguments = (ins Nvvm_ReduxKind:$kind, I32:$mask, I32:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$kind $mask `,` $value attr-dict";
}

def Nvvm_MatchOp : Nvvm_Op<"match"> {
  let summary = "`match.sync`: the member lanes with this lane's value (`any`), or the mask if all have it, else 0 (`all`); sm_70";
  let arguments = (ins Nvvm_MatchMode:$mode, I32:$mask, AnyType:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$mode $mask `,` $value attr-dict `:` type($value)";
}

def Nvvm_InlineAsmOp : Nvvm_Op<"inline_asm"> {
  let summary = "Inline PTX, emitted verbatim with `$N` replaced by operand registers";
  let arguments = (ins StrAttr:$template, StrAttr:$constraints, Variadic<AnyType>:$operands,
                   OptionalAttr<UnitAttr>:$volatile);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$template `,` $constraints `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

