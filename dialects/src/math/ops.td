//===- ops.td - the math dialect ----------------------------------------------===//

include "OpBase.td"

def Math_Dialect : Dialect {
  let name = "math";
  let summary = "Elementary functions on integers and floats";
  let description = [{
    `sqrt`, `exp`, `log`, `sin`, `fma` and the rest of C's math library, as MLIR's `math`
    dialect spells them. Float ops carry `fastmath` flags. Constant operands fold
    (floats are evaluated in double precision and rounded once to the result type)
    into `arith.constant`s.
  }];
  let hasConstantMaterializer = 1;
}

def Math_FastMathFlags : FlagsAttr<"arith", "fastmath", "fast-math flags",
                                   ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"], ",", "none", "fast">;
defvar MathFastMath = DefaultValuedAttr<Math_FastMathFlags, "#arith.fastmath<none>">;

class Math_Op<string mnemonic, list<Trait> traits = []> : Op<Math_Dialect, mnemonic, !listconcat([Pure, Elementwise], traits)>;

class Math_FloatUnaryOp<string mnemonic, string desc> : Math_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = desc;
  let arguments = (ins AnyFloat:$operand, MathFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let folderFn = "fold_float_unary";
  let assemblyFormat = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
}
class Math_FloatBinaryOp<string mnemonic, string desc> : Math_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = desc;
  let arguments = (ins AnyFloat:$lhs, AnyFloat:$rhs, MathFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let folderFn = "fold_float_binary";
  let assemblyFormat = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
}
class Math_IntegerUnaryOp<string mnemonic, string desc> : Math_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = desc;
  let arguments = (ins SignlessIntegerOrIndex:$operand);
  let results = (outs SignlessIntegerOrIndex:$result);
  let folderFn = "fold_integer_unary";
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}
class Math_FloatClassificationOp<string mnemonic, string desc> : Math_Op<mnemonic> {
  let summary = desc;
  let arguments = (ins AnyFloat:$operand, MathFastMath:$fastmath);
  let results = (outs I1:$result);
  let folderFn = "fold_classification";
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Math_SqrtOp : Math_FloatUnaryOp<"sqrt", "Square root">;
def Math_RsqrtOp : Math_FloatUnaryOp<"rsqrt", "Reciprocal square root">;
def Math_CbrtOp : Math_FloatUnaryOp<"cbrt", "Cube root">;
def Math_ExpOp : Math_FloatUnaryOp<"exp", "Base-e exponential">;
def Math_Exp2Op : Math_FloatUnaryOp<"exp2", "Base-2 exponential">;
def Math_ExpM1Op : Math_FloatUnaryOp<"expm1", "exp(x) - 1, accurate near zero">;
def Math_LogOp : Math_FloatUnaryOp<"log", "Natural logarithm">;
def Math_Log2Op : Math_FloatUnaryOp<"log2", "Base-2 logarithm">;
def Math_Log10Op : Math_FloatUnaryOp<"log10", "Base-10 logarithm">;
def Math_Log1pOp : Math_FloatUnaryOp<"log1p", "log(1 + x), accurate near zero">;
def Math_SinOp : Math_FloatUnaryOp<"sin", "Sine">;
def Math_CosOp : Math_FloatUnaryOp<"cos", "Cosine">;
def Math_TanOp : Math_FloatUnaryOp<"tan", "Tangent">;
def Math_TanhOp : Math_FloatUnaryOp<"tanh", "Hyperbolic tangent">;
def Math_AtanOp : Math_FloatUnaryOp<"atan", "Arc tangent">;
def Math_ErfOp : Math_FloatUnaryOp<"erf", "Error function">;
def Math_AbsFOp : Math_FloatUnaryOp<"absf", "Absolute value (clears the sign bit)">;
def Math_CeilOp : Math_FloatUnaryOp<"ceil", "Rounds up to an integer">;
def Math_FloorOp : Math_FloatUnaryOp<"floor", "Rounds down to an integer">;
def Math_RoundOp : Math_FloatUnaryOp<"round", "Rounds to the nearest integer, halfway cases away from zero">;
def Math_RoundEvenOp : Math_FloatUnaryOp<"roundeven", "Rounds to the nearest integer, halfway cases to even">;
def Math_TruncOp : Math_FloatUnaryOp<"trunc", "Rounds toward zero to an integer">;

def Math_Atan2Op : Math_FloatBinaryOp<"atan2", "Arc tangent of y/x, in the quadrant of (x, y)">;
def Math_PowFOp : Math_FloatBinaryOp<"powf", "x raised to the power y">;
def Math_CopySignOp : Math_FloatBinaryOp<"copysign", "x with the sign of y">;

def Math_FmaOp : Math_Op<"fma", [SameOperandsAndResultType]> {
  let summary = "Fused multiply-add: a * b + c rounded once";
  let arguments = (ins AnyFloat:$a, AnyFloat:$b, AnyFloat:$c, MathFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let folderFn = "fold_fma";
  let assemblyFormat = "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
}

def Math_ClampFOp : Math_Op<"clampf", [SameOperandsAndResultType]> {
  let summary = "Clamps a float to the range [min, max]";
  let description = [{
    `math.clampf %x to [%lo, %hi] : f32`. Constant operands fold when none is NaN.
  }];
  let arguments = (ins AnyFloat:$value, AnyFloat:$min, AnyFloat:$max, MathFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let hasFolder = 1;
  let assemblyFormat = "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
}

def Math_FPowIOp : Math_Op<"fpowi", [AllTypesMatch<["lhs", "result"]>]> {
  let summary = "Float raised to an integer power";
  let arguments = (ins AnyFloat:$lhs, SignlessIntegerOrIndex:$rhs, MathFastMath:$fastmath);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)";
}

def Math_AbsIOp : Math_IntegerUnaryOp<"absi", "Integer absolute value (MIN stays MIN)">;
def Math_CountLeadingZerosOp : Math_IntegerUnaryOp<"ctlz", "Count of leading zero bits">;
def Math_CountTrailingZerosOp : Math_IntegerUnaryOp<"cttz", "Count of trailing zero bits">;
def Math_CtPopOp : Math_IntegerUnaryOp<"ctpop", "Count of set bits">;
def Math_IPowIOp : Math_Op<"ipowi", [SameOperandsAndResultType]> {
  let summary = "Integer raised to an integer power (wraps)";
  let arguments = (ins SignlessIntegerOrIndex:$lhs, SignlessIntegerOrIndex:$rhs);
  let results = (outs SignlessIntegerOrIndex:$result);
  let folderFn = "fold_ipowi";
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Math_IsNaNOp : Math_FloatClassificationOp<"isnan", "Whether the operand is NaN">;
def Math_IsInfOp : Math_FloatClassificationOp<"isinf", "Whether the operand is an infinity">;
def Math_IsFiniteOp : Math_FloatClassificationOp<"isfinite", "Whether the operand is neither NaN nor an infinity">;
