//===- OpBase.td - cuprite's operation definition specification (ODS) ---------===//
//
// The classes every dialect's ops.td builds on, in the style of MLIR's ODS. The
// `cuprite-tablegen` backends read the records these classes make:
//   - Rust: op wrappers, the generated verifier, assembly formats, registration;
//   - docs: one markdown page per dialect;
//   - IRDL: the dialect as an MLIR IRDL module.
// Predicates and builders are Rust snippets: `$_ctx` is the `&Context` (`&mut Context`
// for builders) and `$_self` the `TypeId` or `AttrId` being checked.
//
// This file is plain TableGen: `llvm-tblgen --print-records` reads it too.
//
//===----------------------------------------------------------------------------===//

#ifndef CUPRITE_OPBASE_TD
#define CUPRITE_OPBASE_TD

//===----------------------------------------------------------------------------===//
// Dialects
//===----------------------------------------------------------------------------===//

class Dialect {
  // The prefix of the dialect's op names (`arith` in `arith.addi`).
  string name = ?;
  string summary = "";
  string description = "";
  // Whether the dialect's Rust module has `materialize_constant` (folding creates
  // constants of this dialect through it).
  bit hasConstantMaterializer = 0;
  // Whether the dialect's Rust module has `verify_attribute`, which checks discardable
  // attributes named after the dialect (MLIR's `hasOperationAttrVerify`).
  bit hasOperationAttrVerify = 0;
}

//===----------------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------------===//

class Trait {
  string summary = "";
}

// A trait that is a flag of the IR core's `Traits` (checked by the core verifier and used
// by passes).
class NativeTrait<string flagName, string desc> : Trait {
  string flag = flagName;
  let summary = desc;
}

def Pure : NativeTrait<"PURE", "no side effects: unused results can be erased, equal ops merged">;
def Commutative : NativeTrait<"COMMUTATIVE", "operands may be swapped">;
def Terminator : NativeTrait<"TERMINATOR", "ends a block">;
def IsolatedFromAbove : NativeTrait<"ISOLATED_FROM_ABOVE", "regions cannot use values defined outside the op">;
def Symbol : NativeTrait<"SYMBOL", "defines a symbol (`sym_name`)">;
def SymbolTable : NativeTrait<"SYMBOL_TABLE", "its region holds symbols">;
def NoTerminator : NativeTrait<"NO_TERMINATOR", "its blocks need no terminator">;
def ReturnLike : NativeTrait<"RETURN_LIKE", "returns control to the parent op">;
def SingleBlock : NativeTrait<"SINGLE_BLOCK", "each region has at most one block">;
def GraphRegion : NativeTrait<"GRAPH_REGION", "its regions are graph regions (no dominance)">;
def RecursiveMemoryEffects : NativeTrait<"RECURSIVE_MEMORY_EFFECTS", "has the memory effects of the ops in its regions">;
def ConstantLike : NativeTrait<"CONSTANT_LIKE", "materializes a constant attribute">;
def SameOperandsAndResultType : NativeTrait<"SAME_OPERANDS_AND_RESULT_TYPE", "operands and results have one type">;
def Elementwise : NativeTrait<"ELEMENTWISE", "applies elementwise">;

// Traits the generated verifier checks.
def SameTypeOperands : Trait {
  let summary = "all operands have the same type";
}
class AllTypesMatch<list<string> names> : Trait {
  list<string> values = names;
  let summary = "these operands and results have one type";
}
class HasParent<string op> : Trait {
  list<string> parentOps = [op];
  let summary = "nested directly in `" # op # "`";
}
class ParentOneOf<list<string> ops> : Trait {
  list<string> parentOps = ops;
  let summary = "nested directly in one of the listed ops";
}
// The region's blocks end with this op, which the custom form may leave out when it has no
// operands (the parser adds it back).
class SingleBlockImplicitTerminator<string op> : Trait {
  string terminator = op;
  let summary = "single-block regions, terminated by `" # op # "` (implicit when empty)";
}
// Op names in the regions of this op may leave out this dialect prefix.
class DefaultDialect<string d> : Trait {
  string dialect = d;
  let summary = "ops nested in its regions may leave out the `" # d # ".` prefix";
}
// The operand groups' sizes are in the `operandSegmentSizes` property.
def AttrSizedOperandSegments : Trait {
  let summary = "operand group sizes are in `operandSegmentSizes`";
}

//===----------------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------------===//

class TypeConstraint<code pred, string desc, string irdlConstraint = "any"> {
  // Rust `bool` expression over `$_ctx: &Context` and `$_self: TypeId`.
  code predicate = pred;
  string summary = desc;
  // IRDL: `any`, or space-separated alternatives, each a type (`i32`) or a base
  // (`!builtin.integer`).
  string irdl = irdlConstraint;
  // Rust expression over `$_ctx: &mut Context` making the one type this constraint allows
  // (empty: not buildable). The assembly format infers such types.
  code builder = "";
  // Operand/result groups: single, `Optional<>` or `Variadic<>`.
  bit isOptional = 0;
  bit isVariadic = 0;
}

class Type<code pred, string desc, string irdlConstraint = "any", code build = ""> : TypeConstraint<pred, desc, irdlConstraint> {
  let builder = build;
}

class Variadic<TypeConstraint t> : TypeConstraint<t.predicate, "variadic of " # t.summary, t.irdl> {
  TypeConstraint baseType = t;
  let builder = t.builder;
  let isVariadic = 1;
}
class Optional<TypeConstraint t> : TypeConstraint<t.predicate, "optional " # t.summary, t.irdl> {
  TypeConstraint baseType = t;
  let builder = t.builder;
  let isOptional = 1;
}

def AnyType : Type<[{ true }], "any type">;
class I<int w> : Type<"::cuprite_ir::ods::is_signless_int($_ctx, $_self, " # w # ")", w # "-bit signless integer",
                      "i" # w, "$_ctx.int_type(" # w # ")">;
def I1 : I<1>;
def I8 : I<8>;
def I16 : I<16>;
def I32 : I<32>;
def I64 : I<64>;
def Index : Type<[{ ::cuprite_ir::ods::is_index($_ctx, $_self) }], "index", "index", [{ $_ctx.index_type() }]>;
def AnyInteger : Type<[{ ::cuprite_ir::ods::is_int($_ctx, $_self) }], "integer", "!builtin.integer">;
def AnySignlessInteger : Type<[{ ::cuprite_ir::ods::is_signless_int_any($_ctx, $_self) }], "signless integer",
                              "!builtin.integer">;
def SignlessIntegerOrIndex : Type<[{ ::cuprite_ir::ods::is_signless_int_or_index($_ctx, $_self) }],
                                  "signless integer or index", "!builtin.integer index">;
def F16 : Type<[{ ::cuprite_ir::ods::is_float_kind($_ctx, $_self, ::cuprite_ir::FloatKind::F16) }], "16-bit float", "f16">;
def BF16 : Type<[{ ::cuprite_ir::ods::is_float_kind($_ctx, $_self, ::cuprite_ir::FloatKind::BF16) }], "bfloat16", "bf16">;
def F32 : Type<[{ ::cuprite_ir::ods::is_float_kind($_ctx, $_self, ::cuprite_ir::FloatKind::F32) }], "32-bit float", "f32">;
def F64 : Type<[{ ::cuprite_ir::ods::is_float_kind($_ctx, $_self, ::cuprite_ir::FloatKind::F64) }], "64-bit float", "f64">;
def AnyFloat : Type<[{ ::cuprite_ir::ods::is_float($_ctx, $_self) }], "floating-point", "f16 bf16 f32 f64">;
def SignlessIntegerOrIndexOrFloat : Type<[{ ::cuprite_ir::ods::is_signless_int_or_index($_ctx, $_self)
                                            || ::cuprite_ir::ods::is_float($_ctx, $_self) }],
                                         "signless integer, index or floating-point",
                                         "!builtin.integer index f16 bf16 f32 f64">;
def BoolLike : I<1>;
class AnyPointer<int space> : Type<"::cuprite_ir::ods::is_pointer($_ctx, $_self, Some(" # space # "))",
                                   "pointer in address space " # space, "any">;
def AnyPtr : Type<[{ ::cuprite_ir::ods::is_pointer($_ctx, $_self, None) }], "pointer", "any">;

//===----------------------------------------------------------------------------===//
// Attribute constraints
//===----------------------------------------------------------------------------===//

class Attr<code pred, string desc> {
  // Rust `bool` expression over `$_ctx: &Context` and `$_self: AttrId`.
  code predicate = pred;
  string summary = desc;
  // What the wrapper's typed accessor returns: `any` (AttrId), `int` (i128), `str`,
  // `type` (TypeId), `symbol` (the flat symbol name), `unit` (bool), `enum`, `dialect`,
  // `dense_i32` (written `[1, 2]` in custom forms).
  string kind = "any";
  // IRDL: `any` or a base attribute (`#builtin.integer`).
  string irdl = "any";
  // Written as a symbol name (`@name`) in custom forms (a string attribute).
  bit symbolName = 0;
  bit isOptional = 0;
  // Generic-form text of the value a missing attribute stands for (empty: none); the
  // custom-form parser and the builders fill it in.
  string defaultValue = "";
}

class OptionalAttr<Attr a> : Attr<a.predicate, "optional " # a.summary> {
  Attr baseAttr = a;
  let kind = a.kind;
  let irdl = a.irdl;
  let isOptional = 1;
}
// An attribute that may be absent, standing for `value` (a generic-form attribute text).
class DefaultValuedAttr<Attr a, string value> : Attr<a.predicate, a.summary> {
  Attr baseAttr = a;
  let kind = a.kind;
  let irdl = a.irdl;
  let isOptional = 1;
  let defaultValue = value;
}

def AnyAttr : Attr<[{ true }], "any attribute">;
def UnitAttr : Attr<[{ ::cuprite_ir::ods::is_unit_attr($_ctx, $_self) }], "unit attribute"> {
  let kind = "unit";
  let irdl = "#builtin.unit";
}
def StrAttr : Attr<[{ ::cuprite_ir::ods::is_str_attr($_ctx, $_self) }], "string attribute"> {
  let kind = "str";
  let irdl = "#builtin.string";
}
def SymbolNameAttr : Attr<[{ ::cuprite_ir::ods::is_str_attr($_ctx, $_self) }], "symbol name"> {
  let kind = "str";
  let symbolName = 1;
  let irdl = "#builtin.string";
}
def FlatSymbolRefAttr : Attr<[{ ::cuprite_ir::ods::is_flat_symbol_ref($_ctx, $_self) }], "flat symbol reference"> {
  let kind = "symbol";
  let irdl = "#builtin.symbol_ref";
}
def TypeAttr : Attr<[{ ::cuprite_ir::ods::is_type_attr($_ctx, $_self, None) }], "type attribute"> {
  let kind = "type";
  let irdl = "#builtin.type";
}
def FunctionTypeAttr : Attr<[{ ::cuprite_ir::ods::is_type_attr($_ctx, $_self, Some(::cuprite_ir::ods::TypeClass::Function)) }],
                            "function type attribute"> {
  let kind = "type";
  let irdl = "#builtin.type";
}
def ArrayAttr : Attr<[{ ::cuprite_ir::ods::is_array_attr($_ctx, $_self) }], "array attribute"> {
  let irdl = "#builtin.array";
}
def DictArrayAttr : Attr<[{ ::cuprite_ir::ods::is_dict_array_attr($_ctx, $_self) }], "array of dictionaries"> {
  let irdl = "#builtin.array";
}
class TypedIntAttr<int w, string desc> : Attr<"::cuprite_ir::ods::is_int_attr($_ctx, $_self, Some(" # w # "))", desc> {
  let kind = "int";
  let irdl = "#builtin.integer";
}
def I32Attr : TypedIntAttr<32, "32-bit integer attribute">;
def I64Attr : TypedIntAttr<64, "64-bit integer attribute">;
def IndexAttr : Attr<[{ ::cuprite_ir::ods::is_index_attr($_ctx, $_self) }], "index attribute"> {
  let kind = "int";
  let irdl = "#builtin.integer";
}
def DenseI32ArrayAttr : Attr<[{ ::cuprite_ir::ods::is_dense_i32_array($_ctx, $_self) }], "i32 dense array"> {
  let kind = "dense_i32";
  let irdl = "#builtin.dense_array";
}
// An integer, float or boolean constant whose type is the op's result type.
def TypedAttrInterface : Attr<[{ ::cuprite_ir::ods::is_typed_scalar_attr($_ctx, $_self) }], "typed scalar attribute">;

// Enumerations stored as integer attributes, printed as keywords in custom forms.
class EnumCase<string sym, int val> {
  string symbol = sym;
  int value = val;
}
class IntEnumAttr<int w, string enumName, string desc, list<EnumCase> enumCases>
    : Attr<"::cuprite_ir::ods::is_int_attr($_ctx, $_self, Some(" # w # "))", desc> {
  string name = enumName;
  list<EnumCase> cases = enumCases;
  int width = w;
  let kind = "enum";
  let irdl = "#builtin.integer";
}
class I64EnumAttr<string enumName, string desc, list<EnumCase> enumCases> : IntEnumAttr<64, enumName, desc, enumCases>;
class I32EnumAttr<string enumName, string desc, list<EnumCase> enumCases> : IntEnumAttr<32, enumName, desc, enumCases>;

// A dialect attribute `#dialect.mnemonic<flag, ...>` over a set of flags (a bit enum),
// printed stripped (`mnemonic<flag, ...>`) in custom forms. `allowed` is in bit order (the
// printed order); `noneName` stands for no flag, `allName` (if any) for all of them.
class FlagsAttr<string attrDialect, string attrMnemonic, string desc, list<string> allowed, string sep = ", ",
                string noneFlag = "none", string allFlag = "">
    : Attr<"::cuprite_ir::ods::is_flags_attr($_ctx, $_self, \"" # attrDialect # "\", \"" # attrMnemonic # "\")", desc> {
  string dialect = attrDialect;
  string mnemonic = attrMnemonic;
  list<string> flags = allowed;
  string separator = sep;
  string noneName = noneFlag;
  string allName = allFlag;
  let kind = "dialect";
}

//===----------------------------------------------------------------------------===//
// Regions and successors
//===----------------------------------------------------------------------------===//

class Region<code pred, string desc> {
  // Rust `bool` expression over `$_ctx: &Context` and `$_self: RegionId`.
  code predicate = pred;
  string summary = desc;
  bit isVariadic = 0;
}
def AnyRegion : Region<[{ true }], "any region">;
class SizedRegion<int n> : Region<"$_ctx.region_blocks($_self).len() <= " # n, "region with at most " # n # " blocks">;
class VariadicRegion<Region r> : Region<r.predicate, "variadic of " # r.summary> {
  let isVariadic = 1;
}

class Successor<string desc> {
  string summary = desc;
  bit isVariadic = 0;
}
def AnySuccessor : Successor<"any successor">;
class VariadicSuccessor<Successor s> : Successor<"variadic of " # s.summary> {
  let isVariadic = 1;
}

//===----------------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------------===//

// Dag operators of an op's arguments, results, regions and successors.
def ins;
def outs;
def region;
def successor;

// A dialect type with parameters (MLIR's TypeDef). The IR core keeps dialect types as
// text; this declaration gives their parameters to the docs and to the IRDL backend
// (`irdl.type`), whose parameter syntax `!dialect.mnemonic<p1, p2>` is the spelling
// `--irdl-compatible` printing uses.
class TypeParameter<string irdlConstraint, string desc> {
  string irdl = irdlConstraint;
  string summary = desc;
}
def TypeParam : TypeParameter<"any", "a type">;
def StringParam : TypeParameter<"#builtin.string", "a string">;
def IntegerParam : TypeParameter<"#builtin.integer", "an integer">;
def TypeArrayParam : TypeParameter<"#builtin.array", "an array of types">;

class TypeDef<Dialect dialect, string mnemonic> {
  Dialect typeDialect = dialect;
  string typeMnemonic = mnemonic;
  string summary = "";
  string description = "";
  // `(ins TypeParam:$pointee, StringParam:$space)`.
  dag parameters = (ins);
}

class Op<Dialect dialect, string mnemonic, list<Trait> props = []> {
  Dialect opDialect = dialect;
  string opName = mnemonic;
  list<Trait> traits = props;
  string summary = "";
  string description = "";
  // `(ins Constraint:$name, ...)`: operands (type constraints) and attributes.
  dag arguments = (ins);
  dag results = (outs);
  dag regions = (region);
  dag successors = (successor);
  // MLIR's declarative assembly format (the subset the Rust backend knows).
  string assemblyFormat = "";
  // The custom form is hand-written: `print_<op>`/`parse_<op>` in the dialect module.
  bit hasCustomAssemblyFormat = 0;
  // Hand-written hooks in the dialect module, named after the op (`verify_addi`,
  // `fold_addi`, `canonicalize_addi`), or the function given by the `*Fn` field.
  bit hasVerifier = 0;
  bit hasFolder = 0;
  bit hasCanonicalizer = 0;
  string verifierFn = "";
  string folderFn = "";
  string canonicalizerFn = "";
  // Branch interface: for each successor, the operand group forwarded to it.
  list<string> successorOperands = [];
  // Call interface: the callee symbol attribute. Callable interface: the body region.
  string calleeAttr = "";
  string callableRegion = "";
  // With a hand-written custom form: a `fn(&Context, OpId) -> bool` saying whether it can
  // print the op (else the generic form is used, as for ops that do not verify).
  string printGuardFn = "";
  // Hand-written interface hooks (Rust paths in the dialect module).
  string memoryEffectsFn = "";
  string regionSuccessorsFn = "";
  // MLIR's `OpAsmOpInterface::getAsmResultNames`: a `fn(&Context, OpId) -> Vec<String>`
  // giving the printer names for the op's results (`%c0_i32` for a constant).
  string asmResultNamesFn = "";
}

#endif // CUPRITE_OPBASE_TD
