//===- ops.td - the ptx dialect -----------------------------------------------===//

include "OpBase.td"

def Ptx_Dialect : Dialect {
  let name = "ptx";
  let summary = "PTX instructions on virtual registers";
  let description = [{
    One op per PTX instruction, after instruction selection. The dialect is not in SSA
    form: a register is a value made by `ptx.reg` (its type gives its class: `i1` `.pred`,
    `i16` `.b16`, `i32` `.b32`, `i64` `.b64`, `f32` `.f32`, `f64` `.f64`) and an
    instruction names the registers it writes and reads as operands, destinations first,
    exactly in PTX's operand order. Immediates are `ptx.imm` values and symbol addresses
    (globals, kernel parameters) `ptx.sym` values; both print inline.

    An instruction's modifiers and type suffixes are its `mods` string, so
    `ptx.add "s32"(%r3, %r1, %r2)` prints as `add.s32 %r3, %r1, %r2;` and
    `ptx.ld "global.nc.f32"(%f1, %rd4) {offset = 8 : i64}` as `ld.global.nc.f32 %f1, [%rd4+8];`.
    Blocks are labels; `ptx.bra`/`ptx.cbra` branch between them, `ptx.ret` ends a function.
    The PTX printer (in `lowering`) is the only producer of PTX text.
  }];
}

class Ptx_Op<string mnemonic, list<Trait> traits = []> : Op<Ptx_Dialect, mnemonic, traits>;

def Ptx_FuncKind : I32EnumAttr<"FuncKind", "function kind", [EnumCase<"entry", 0>, EnumCase<"func", 1>]>;

def Ptx_FuncOp : Ptx_Op<"func", [IsolatedFromAbove, Symbol, DefaultDialect<"ptx">]> {
  let summary = "An `.entry` (kernel) or a `.func` (device function)";
  let description = [{
    `params` lists each parameter's PTX declaration after `.param` (`.u64`, `.f32`,
    `.align 8 .b8 [16]`); a parameter is named `<sym_name>_param_<i>` and read with
    `ld.param` through a `ptx.sym`. `.func` results are in `rets` (`.b32`, ...), named
    `func_retval<i>`. Kernel directives: `maxntid`, `minnctapersm`, `maxnreg`. An `extern`
    function (`vprintf`, `__assertfail`) has no body: `.extern .func`. `depot` and
    `depot_align` size the function's local memory (`__local_depot<N>`).

    ```mlir
    ptx.func entry @scale {params = [".u64", ".u32"], maxntid = array<i32: 256>} {
      %0 = ptx.reg : i64
      ...
      ptx.ret
    }
    ```
  }];
  let arguments = (ins Ptx_FuncKind:$kind, SymbolNameAttr:$sym_name, ArrayAttr:$params, OptionalAttr<ArrayAttr>:$rets,
                   OptionalAttr<DenseI32ArrayAttr>:$maxntid, OptionalAttr<I32Attr>:$minnctapersm,
                   OptionalAttr<I32Attr>:$maxnreg, OptionalAttr<UnitAttr>:$visible, OptionalAttr<UnitAttr>:$extern,
                   OptionalAttr<I64Attr>:$depot, OptionalAttr<I64Attr>:$depot_align);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$kind $sym_name attr-dict-with-keyword $body";
}

def Ptx_GlobalOp : Ptx_Op<"global", [Symbol]> {
  let summary = "A module-scope `.global`, `.shared` or `.const` variable";
  let description = [{
    `size` bytes aligned to `align`, declared as `.b8 name[size]` with an optional byte
    initializer `init` (`array<i8: ...>`); `extern` gives dynamic shared memory
    (`.extern .shared .align 16 .b8 name[];`); `managed` prints `.attribute(.managed)`.
    `init_syms` names the functions or variables whose addresses the initializer holds
    (a vtable, or `generic($str)`, read from NVIDIA's PTX) at the byte offsets
    `init_sym_offsets`.
  }];
  let arguments = (ins StrAttr:$space, SymbolNameAttr:$sym_name, I64Attr:$size, I32Attr:$align,
                   OptionalAttr<AnyAttr>:$init, OptionalAttr<UnitAttr>:$extern, OptionalAttr<UnitAttr>:$managed,
                   OptionalAttr<AnyAttr>:$init_sym_offsets, OptionalAttr<ArrayAttr>:$init_syms);
  let assemblyFormat = "$space $sym_name attr-dict";
}

def Ptx_RegOp : Ptx_Op<"reg"> {
  let summary = "A virtual register of the class its type gives";
  let results = (outs AnyType:$reg);
  let assemblyFormat = "attr-dict `:` type($reg)";
}

def Ptx_ImmOp : Ptx_Op<"imm", [Pure]> {
  let summary = "An immediate operand (integer, or float printed as `0f`/`0d` bits)";
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
}

def Ptx_SymOp : Ptx_Op<"sym", [Pure]> {
  let summary = "The address of a global or parameter, as an operand";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

class Ptx_Inst<string mnemonic, string what> : Ptx_Op<mnemonic> {
  let summary = "`" # mnemonic # "`: " # what;
  // `vec_at`/`vec_len`: a register the PTX reader made of element `vec_at` of a
  // `vec_len`-element vector operand (`mov.b64 %rd, {%r1, %r2}`).
  // `used_bytes`: on a load, the bytes of the loaded value that are used (NVIDIA's
  // `.pragma "used_bytes_mask N";` before it); the others may never have been written.
  let arguments = (ins StrAttr:$mods, Variadic<AnyType>:$args, OptionalAttr<I64Attr>:$offset,
                   OptionalAttr<I32Attr>:$vec_at, OptionalAttr<I32Attr>:$vec_len,
                   OptionalAttr<I32Attr>:$used_bytes);
  let assemblyFormat = "$mods `(` $args `)` attr-dict (`:` type($args)^)?";
  // The modifiers and type suffixes each mnemonic takes (`verify.rs`, one table).
  let verifierFn = "verify_inst";
}

def Ptx_MovOp : Ptx_Inst<"mov", "copies or bit-casts a register, immediate or symbol address">;
def Ptx_AddOp : Ptx_Inst<"add", "addition">;
def Ptx_SubOp : Ptx_Inst<"sub", "subtraction">;
def Ptx_MulOp : Ptx_Inst<"mul", "multiplication (`lo`, `hi`, `wide` for integers)">;
def Ptx_MadOp : Ptx_Inst<"mad", "multiply-add (`lo`, `wide` for integers; `rn` for floats)">;
def Ptx_FmaOp : Ptx_Inst<"fma", "fused multiply-add">;
def Ptx_DivOp : Ptx_Inst<"div", "division">;
def Ptx_RemOp : Ptx_Inst<"rem", "remainder">;
def Ptx_AndOp : Ptx_Inst<"and", "bitwise and">;
def Ptx_OrOp : Ptx_Inst<"or", "bitwise or">;
def Ptx_XorOp : Ptx_Inst<"xor", "bitwise xor">;
def Ptx_NotOp : Ptx_Inst<"not", "bitwise not">;
def Ptx_ShlOp : Ptx_Inst<"shl", "shift left">;
def Ptx_ShrOp : Ptx_Inst<"shr", "shift right">;
def Ptx_NegOp : Ptx_Inst<"neg", "negation">;
def Ptx_AbsOp : Ptx_Inst<"abs", "absolute value">;
def Ptx_MinOp : Ptx_Inst<"min", "minimum">;
def Ptx_MaxOp : Ptx_Inst<"max", "maximum">;
def Ptx_SetpOp : Ptx_Inst<"setp", "compare to a predicate">;
def Ptx_SelpOp : Ptx_Inst<"selp", "select on a predicate">;
def Ptx_CvtOp : Ptx_Inst<"cvt", "conversion">;
def Ptx_CvtaOp : Ptx_Inst<"cvta", "address conversion between generic and a state space">;
def Ptx_LdOp : Ptx_Inst<"ld", "load; the address is operand 1, plus `offset`">;
def Ptx_StOp : Ptx_Inst<"st", "store; the address is operand 0, plus `offset`">;
def Ptx_AtomOp : Ptx_Inst<"atom", "atomic read-modify-write; the address is operand 1">;
def Ptx_BarOp : Ptx_Inst<"bar", "block barrier">;
def Ptx_MembarOp : Ptx_Inst<"membar", "memory fence">;
def Ptx_ShflOp : Ptx_Inst<"shfl", "warp shuffle (`shfl.sync`)">;
def Ptx_VoteOp : Ptx_Inst<"vote", "warp vote (`vote.sync`)">;
def Ptx_SqrtOp : Ptx_Inst<"sqrt", "square root">;
def Ptx_RcpOp : Ptx_Inst<"rcp", "reciprocal">;
def Ptx_RsqrtOp : Ptx_Inst<"rsqrt", "reciprocal square root">;
def Ptx_Ex2Op : Ptx_Inst<"ex2", "base-2 exponential">;
def Ptx_Lg2Op : Ptx_Inst<"lg2", "base-2 logarithm">;
def Ptx_SinOp : Ptx_Inst<"sin", "sine">;
def Ptx_CosOp : Ptx_Inst<"cos", "cosine">;
def Ptx_PopcOp : Ptx_Inst<"popc", "population count">;
def Ptx_ClzOp : Ptx_Inst<"clz", "count leading zeros">;
def Ptx_BrevOp : Ptx_Inst<"brev", "bit reverse">;
def Ptx_Dp4aOp : Ptx_Inst<"dp4a", "four-way byte dot product accumulate (`dp4a.atype.btype d, a, b, c`)">;
def Ptx_MatchOp : Ptx_Inst<"match", "lanes of the member mask holding the same value (`any`), or whether all do (`all`)">;
def Ptx_CpOp : Ptx_Inst<"cp", "`cp.async` global to shared copy (sm_80), `cp.async.commit_group`, `cp.async.wait_group N`">;
def Ptx_PrmtOp : Ptx_Inst<"prmt", "byte permute: the bytes of the 64-bit {b, a} that selector c picks">;
def Ptx_ShfOp : Ptx_Inst<"shf", "funnel shift of the 64-bit {b, a} by c (`wrap`: c mod 32; `clamp`: at most 32)">;
def Ptx_BfindOp : Ptx_Inst<"bfind", "position of the most significant non-sign bit (`shiftamt`: as a shift)">;
def Ptx_TexOp : Ptx_Inst<"tex", "texture fetch: four channels, then the texture object, its coordinates and the level">;
def Ptx_Mul24Op : Ptx_Inst<"mul24", "24-bit multiplication">;
def Ptx_CopysignOp : Ptx_Inst<"copysign", "copy sign">;
def Ptx_TrapOp : Ptx_Inst<"trap", "abort the kernel">;
def Ptx_ActivemaskOp : Ptx_Inst<"activemask", "active threads of the warp">;
def Ptx_RedOp : Ptx_Inst<"red", "atomic reduction without a result; the address is operand 0">;
def Ptx_BfeOp : Ptx_Inst<"bfe", "bit field extract">;
def Ptx_BfiOp : Ptx_Inst<"bfi", "bit field insert">;
def Ptx_TestpOp : Ptx_Inst<"testp", "tests a float's class (finite, infinite, notanumber, normal, subnormal)">;
def Ptx_TanhOp : Ptx_Inst<"tanh", "hyperbolic tangent">;
def Ptx_CnotOp : Ptx_Inst<"cnot", "C logical not">;
def Ptx_AddcOp : Ptx_Inst<"addc", "addition with carry-in (`cc`: and carry-out)">;
def Ptx_SubcOp : Ptx_Inst<"subc", "subtraction with borrow-in (`cc`: and borrow-out)">;
def Ptx_MadcOp : Ptx_Inst<"madc", "multiply-add with carry-in (`cc`: and carry-out)">;
def Ptx_ReduxOp : Ptx_Inst<"redux", "warp-wide reduction (`redux.sync`)">;
def Ptx_FnsOp : Ptx_Inst<"fns", "find the n-th set bit">;
def Ptx_BarrierOp : Ptx_Inst<"barrier", "block barrier (`barrier.sync`, not required to be aligned)">;

def Ptx_BraOp : Ptx_Op<"bra", [Terminator]> {
  let summary = "`bra.uni`: unconditional branch";
  let description = [{
    `nounroll` on a loop's back edge: `.pragma "nounroll";` before it (`#pragma unroll 1`).
  }];
  let arguments = (ins OptionalAttr<UnitAttr>:$nounroll);
  let successors = (successor AnySuccessor:$dest);
  let assemblyFormat = "$dest attr-dict";
}

def Ptx_CBraOp : Ptx_Op<"cbra", [Terminator]> {
  let summary = "`@%p bra`: branch to `trueDest` if the predicate is set, else to `falseDest`";
  let arguments = (ins I1:$predicate);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let assemblyFormat = "$predicate `,` $trueDest `,` $falseDest attr-dict";
}

def Ptx_RetOp : Ptx_Op<"ret", [Terminator]> {
  let summary = "`ret`";
  let assemblyFormat = "attr-dict";
}

def Ptx_ExitOp : Ptx_Op<"exit", [Terminator]> {
  let summary = "`exit`: the thread ends (in a `.func` too)";
  let assemblyFormat = "attr-dict";
}

def Ptx_TrapOpTerm : Ptx_Op<"unreachable", [Terminator]> {
  let summary = "`trap`, ending a block control never reaches";
  let assemblyFormat = "attr-dict";
}

def Ptx_CallOp : Ptx_Op<"call"> {
  let summary = "Calls a `.func` with the PTX ABI (`.param` arguments)";
  let description = [{
    The first `nresults` operands are the registers the results go to, the rest the
    arguments. The printer writes the call sequence: a `{ }` block declaring `.param`
    for each argument (sub-32-bit scalars widened to `.b32`), `st.param`, `call.uni` and
    `ld.param` of the results.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args, I32Attr:$nresults);
  let calleeAttr = "callee";
  let assemblyFormat = "$callee `(` $args `)` attr-dict (`:` type($args)^)?";
}

def Ptx_CallIndirectOp : Ptx_Op<"call_indirect"> {
  let summary = "Calls the `.func` whose address a register holds, through a call prototype";
  let description = [{
    `call (retval0), %rd5, (param0), prototype_0;` as nvcc writes a virtual call. The first
    `nresults` operands are the result registers, the next the function's address, the
    rest the arguments; `rets` and `params` are the prototype's declarations (`.b32`,
    `.align 8 .b8 [16]`).
  }];
  let arguments = (ins Variadic<AnyType>:$args, I32Attr:$nresults, ArrayAttr:$rets, ArrayAttr:$params);
  let assemblyFormat = "`(` $args `)` attr-dict (`:` type($args)^)?";
}

def Ptx_AsmOp : Ptx_Op<"asm"> {
  let summary = "Inline PTX: `template` with `%N` replaced by the Nth operand's register";
  let arguments = (ins StrAttr:$template, Variadic<AnyType>:$args);
  let assemblyFormat = "$template `(` $args `)` attr-dict (`:` type($args)^)?";
}

