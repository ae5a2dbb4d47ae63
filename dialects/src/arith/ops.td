//===- ops.td - the arith dialect ---------------------------------------------===//

include "OpBase.td"

def Arith_Dialect : Dialect {
  let name = "arith";
  let summary = "Integer and floating-point arithmetic";
  let description = [{
    Scalar arithmetic as MLIR's `arith` defines it: integers are signless and the op
    says how it reads them (`divsi` vs `divui`), integer arithmetic wraps, and division by
    zero is undefined (never folded). Floats follow IEEE 754; `fastmath` flags allow
    rewrites that ignore NaN, infinities or signed zeros.
  }];
  let hasConstantMaterializer = 1;
}

class Arith_Op<string mnemonic, list<Trait> traits = []> : Op<Arith_Dialect, mnemonic, !listconcat([Pure, Elementwise], traits)>;

def Arith_OverflowFlags : FlagsAttr<"arith", "overflow", "integer overflow flags", ["nsw", "nuw"]>;
def Arith_FastMathFlags : FlagsAttr<"arith", "fastmath", "fast-math flags",
                                    ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"], ",", "none", "fast">;
defvar DefaultOverflow = DefaultValuedAttr<Arith_OverflowFlags, "#arith.overflow<none>">;
defvar DefaultFastMath = DefaultValuedAttr<Arith_FastMathFlags, "#arith.fastmath<none>">;

def Arith_CmpIPredicate : I64EnumAttr<"CmpIPredicate", "integer comparison predicate", [
  EnumCase<"eq", 0>, EnumCase<"ne", 1>, EnumCase<"slt", 2>, EnumCase<"sle", 3>, EnumCase<"sgt", 4>,
  EnumCase<"sge", 5>, EnumCase<"ult", 6>, EnumCase<"ule", 7>, EnumCase<"ugt", 8>, EnumCase<"uge", 9>]>;
def Arith_CmpFPredicate : I64EnumAttr<"CmpFPredicate", "float comparison predicate", [
  EnumCase<"false", 0>, EnumCase<"oeq", 1>, EnumCase<"ogt", 2>, EnumCase<"oge", 3>, EnumCase<"olt", 4>,
  EnumCase<"ole", 5>, EnumCase<"one", 6>, EnumCase<"ord", 7>, EnumCase<"ueq", 8>, EnumCase<"ugt", 9>,
  EnumCase<"uge", 10>, EnumCase<"ult", 11>, EnumCase<"ule", 12>, EnumCase<"une", 13>, EnumCase<"uno", 14>,
  EnumCase<"true", 15>]>;
def Arith_RoundingMode : I32EnumAttr<"RoundingMode", "floating-point rounding mode", [
  EnumCase<"to_nearest_even", 0>, EnumCase<"downward", 1>, EnumCase<"upward", 2>, EnumCase<"toward_zero", 3>,
  EnumCase<"to_nearest_away", 4>]>;

//===----------------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------------===//

def Arith_ConstantOp : Op<Arith_Dialect, "constant", [Pure, ConstantLike]> {
  let summary = "An integer, index or float constant";
  let description = [{
    ```mlir
    %c42 = arith.constant 42 : i32
    %t = arith.constant true
    %f = arith.constant 1.500000e+00 : f32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let hasVerifier = 1;
  let hasFolder = 1;
  let asmResultNamesFn = "constant_result_name";
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------------===//
// Integer arithmetic
//===----------------------------------------------------------------------------===//

class Arith_IntBinaryOp<string mnemonic, list<Trait> traits = []> : Arith_Op<mnemonic, !listconcat([SameOperandsAndResultType], traits)> {
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs);
  let results = (outs SignlessIntegerOrIndex:$result);
  let folderFn = "fold_int_binary";
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

class Arith_IntBinaryOpWithOverflow<string mnemonic, list<Trait> traits = []> : Arith_IntBinaryOp<mnemonic, traits> {
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs, DefaultOverflow:$overflowFlags);
  let assemblyFormat = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)";
}

class Arith_IntBinaryOpWithExact<string mnemonic, list<Trait> traits = []> : Arith_IntBinaryOp<mnemonic, traits> {
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs, OptionalAttr<UnitAttr>:$isExact);
  let assemblyFormat = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)";
}

def Arith_AddIOp : Arith_IntBinaryOpWithOverflow<"addi", [Commutative]> {
  let summary = "Integer addition (wraps)";
  let canonicalizerFn = "canonicalize_addi";
}
def Arith_SubIOp : Arith_IntBinaryOpWithOverflow<"subi"> {
  let summary = "Integer subtraction (wraps)";
}
def Arith_MulIOp : Arith_IntBinaryOpWithOverflow<"muli", [Commutative]> {
  let summary = "Integer multiplication (wraps)";
  let canonicalizerFn = "canonicalize_muli";
}
def Arith_DivSIOp : Arith_IntBinaryOpWithExact<"divsi"> {
  let summary = "Signed integer division rounding toward zero (undefined for x/0 and MIN/-1)";
}
def Arith_DivUIOp : Arith_IntBinaryOpWithExact<"divui"> {
  let summary = "Unsigned integer division (undefined for x/0)";
}
def Arith_CeilDivSIOp : Arith_IntBinaryOp<"ceildivsi"> {
  let summary = "Signed integer division rounding toward positive infinity";
}
def Arith_CeilDivUIOp : Arith_IntBinaryOp<"ceildivui"> {
  let summary = "Unsigned integer division rounding up";
}
def Arith_FloorDivSIOp : Arith_IntBinaryOp<"floordivsi"> {
  let summary = "Signed integer division rounding toward negative infinity";
}
def Arith_RemSIOp : Arith_IntBinaryOp<"remsi"> {
  let summary = "Signed remainder (sign of the dividend)";
}
def Arith_RemUIOp : Arith_IntBinaryOp<"remui"> {
  let summary = "Unsigned remainder";
}
def Arith_AndIOp : Arith_IntBinaryOp<"andi", [Commutative]> {
  let summary = "Bitwise and";
}
def Arith_OrIOp : Arith_IntBinaryOp<"ori", [Commutative]> {
  let summary = "Bitwise or";
}
def Arith_XOrIOp : Arith_IntBinaryOp<"xori", [Commutative]> {
  let summary = "Bitwise exclusive or";
}
def Arith_ShLIOp : Arith_IntBinaryOpWithOverflow<"shli"> {
  let summary = "Shift left (a shift by the bit width or more is poison)";
}
def Arith_ShRSIOp : Arith_IntBinaryOpWithExact<"shrsi"> {
  let summary = "Arithmetic shift right";
}
def Arith_ShRUIOp : Arith_IntBinaryOpWithExact<"shrui"> {
  let summary = "Logical shift right";
}
def Arith_MaxSIOp : Arith_IntBinaryOp<"maxsi", [Commutative]> {
  let summary = "Signed maximum";
}
def Arith_MaxUIOp : Arith_IntBinaryOp<"maxui", [Commutative]> {
  let summary = "Unsigned maximum";
}
def Arith_MinSIOp : Arith_IntBinaryOp<"minsi", [Commutative]> {
  let summary = "Signed minimum";
}
def Arith_MinUIOp : Arith_IntBinaryOp<"minui", [Commutative]> {
  let summary = "Unsigned minimum";
}

def Arith_AddUIExtendedOp : Arith_Op<"addui_extended", [Commutative, AllTypesMatch<["lhs", "rhs", "sum"]>]> {
  let summary = "Unsigned addition with a carry-out bit";
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs);
  let results = (outs SignlessIntegerOrIndex:$sum, I1:$overflow);
  let asmResultNamesFn = "sum_overflow_names";
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)";
}
def Arith_MulSIExtendedOp : Arith_Op<"mulsi_extended", [Commutative, AllTypesMatch<["lhs", "rhs", "low", "high"]>]> {
  let summary = "Signed multiplication giving the low and high halves of the double-width product";
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs);
  let results = (outs SignlessIntegerOrIndex:$low, SignlessIntegerOrIndex:$high);
  let asmResultNamesFn = "low_high_names";
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}
def Arith_MulUIExtendedOp : Arith_Op<"mului_extended", [Commutative, AllTypesMatch<["lhs", "rhs", "low", "high"]>]> {
  let summary = "Unsigned multiplication giving the low and high halves of the double-width product";
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs);
  let results = (outs SignlessIntegerOrIndex:$low, SignlessIntegerOrIndex:$high);
  let asmResultNamesFn = "low_high_names";
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

//===----------------------------------------------------------------------------===//
// Float arithmetic
//===----------------------------------------------------------------------------===//

class Arith_FloatBinaryOp<string mnemonic, list<Trait> traits = []> : Arith_Op<mnemonic, !listconcat([SameOperandsAndResultType], traits)> {
  let arguments = (ins AnyFloat:$lhs, AnyFloat:$rhs, DefaultFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let folderFn = "fold_float_binary";
  let assemblyFormat = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
}

def Arith_AddFOp : Arith_FloatBinaryOp<"addf", [Commutative]> {
  let summary = "Float addition";
}
def Arith_SubFOp : Arith_FloatBinaryOp<"subf"> {
  let summary = "Float subtraction";
}
def Arith_MulFOp : Arith_FloatBinaryOp<"mulf", [Commutative]> {
  let summary = "Float multiplication";
}
def Arith_DivFOp : Arith_FloatBinaryOp<"divf"> {
  let summary = "Float division";
}
def Arith_RemFOp : Arith_FloatBinaryOp<"remf"> {
  let summary = "Float remainder (C's fmod)";
}
def Arith_MaximumFOp : Arith_FloatBinaryOp<"maximumf", [Commutative]> {
  let summary = "Float maximum, propagating NaN (IEEE 754-2019 maximum)";
}
def Arith_MinimumFOp : Arith_FloatBinaryOp<"minimumf", [Commutative]> {
  let summary = "Float minimum, propagating NaN (IEEE 754-2019 minimum)";
}
def Arith_MaxNumFOp : Arith_FloatBinaryOp<"maxnumf", [Commutative]> {
  let summary = "Float maximum, ignoring a NaN operand (C's fmax)";
}
def Arith_MinNumFOp : Arith_FloatBinaryOp<"minnumf", [Commutative]> {
  let summary = "Float minimum, ignoring a NaN operand (C's fmin)";
}
def Arith_NegFOp : Arith_Op<"negf", [SameOperandsAndResultType]> {
  let summary = "Float negation (flips the sign bit, NaN included)";
  let arguments = (ins AnyFloat:$operand, DefaultFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let hasFolder = 1;
  let assemblyFormat = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------------===//
// Comparisons and select
//===----------------------------------------------------------------------------===//

def Arith_CmpIOp : Arith_Op<"cmpi", [SameTypeOperands]> {
  let summary = "Integer comparison";
  let description = [{
    `arith.cmpi slt, %a, %b : i32`: the predicate says whether the operands are read as
    signed (`s..`) or unsigned (`u..`). Constant operands fold; so do `x op x`.
  }];
  let arguments = (ins Arith_CmpIPredicate:$predicate, SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs);
  let results = (outs I1:$result);
  let hasFolder = 1;
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Arith_CmpFOp : Arith_Op<"cmpf", [SameTypeOperands]> {
  let summary = "Float comparison";
  let description = [{
    Ordered predicates (`o..`) are false if either operand is NaN, unordered ones (`u..`)
    true; `ord`/`uno` test for NaN.
  }];
  let arguments = (ins Arith_CmpFPredicate:$predicate, AnyFloat:$lhs, AnyFloat:$rhs, DefaultFastMath:$fastmath);
  let results = (outs I1:$result);
  let hasFolder = 1;
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)";
}

def Arith_SelectOp : Arith_Op<"select", [AllTypesMatch<["true_value", "false_value", "result"]>]> {
  let summary = "Chooses one of two values by an i1 condition";
  let description = [{
    `arith.select %c, %a, %b : i32`. A constant condition or equal operands fold; an
    `i1` select of constants becomes the condition or its negation.
  }];
  let arguments = (ins I1:$condition, AnyType:$true_value, AnyType:$false_value);
  let results = (outs AnyType:$result);
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------------===//

class Arith_CastOp<string mnemonic, TypeConstraint from, TypeConstraint to> : Arith_Op<mnemonic> {
  let arguments = (ins from:$in);
  let results = (outs to:$out);
  let verifierFn = "verify_cast";
  let folderFn = "fold_cast";
  let assemblyFormat = "$in attr-dict `:` type($in) `to` type($out)";
}

def Arith_ExtSIOp : Arith_CastOp<"extsi", AnySignlessInteger, AnySignlessInteger> {
  let summary = "Sign extension to a wider integer";
}
def Arith_ExtUIOp : Arith_CastOp<"extui", AnySignlessInteger, AnySignlessInteger> {
  let summary = "Zero extension to a wider integer";
}
def Arith_TruncIOp : Arith_CastOp<"trunci", AnySignlessInteger, AnySignlessInteger> {
  let summary = "Truncation to a narrower integer (keeps the low bits)";
  let arguments = (ins AnySignlessInteger:$in, DefaultOverflow:$overflowFlags);
  let assemblyFormat = "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)";
}
def Arith_SIToFPOp : Arith_CastOp<"sitofp", AnySignlessInteger, AnyFloat> {
  let summary = "Signed integer to float (rounding to nearest even)";
}
def Arith_UIToFPOp : Arith_CastOp<"uitofp", AnySignlessInteger, AnyFloat> {
  let summary = "Unsigned integer to float (rounding to nearest even)";
}
def Arith_FPToSIOp : Arith_CastOp<"fptosi", AnyFloat, AnySignlessInteger> {
  let summary = "Float to signed integer, rounding toward zero (poison when out of range)";
}
def Arith_FPToUIOp : Arith_CastOp<"fptoui", AnyFloat, AnySignlessInteger> {
  let summary = "Float to unsigned integer, rounding toward zero (poison when out of range)";
}
def Arith_ExtFOp : Arith_CastOp<"extf", AnyFloat, AnyFloat> {
  let summary = "Extension to a wider float (exact)";
  let arguments = (ins AnyFloat:$in, OptionalAttr<Arith_FastMathFlags>:$fastmath);
  let assemblyFormat = "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)";
}
def Arith_TruncFOp : Arith_CastOp<"truncf", AnyFloat, AnyFloat> {
  let summary = "Truncation to a narrower float (rounding to nearest even unless a mode is given)";
  let arguments = (ins AnyFloat:$in, OptionalAttr<Arith_RoundingMode>:$roundingmode, OptionalAttr<Arith_FastMathFlags>:$fastmath);
  let assemblyFormat = "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)";
}
def Arith_IndexCastOp : Arith_CastOp<"index_cast", SignlessIntegerOrIndex, SignlessIntegerOrIndex> {
  let summary = "Between index and an integer type (sign-extending or truncating)";
}
def Arith_IndexCastUIOp : Arith_CastOp<"index_castui", SignlessIntegerOrIndex, SignlessIntegerOrIndex> {
  let summary = "Between index and an integer type (zero-extending or truncating)";
}
def Arith_BitcastOp : Arith_CastOp<"bitcast", SignlessIntegerOrIndexOrFloat, SignlessIntegerOrIndexOrFloat> {
  let summary = "Reinterprets the bits as another type of the same width";
}
