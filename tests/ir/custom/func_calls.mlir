// func.func definitions and private declarations (named/unnamed args, arg/result attrs, `attributes`), func.call with 0/1/multiple results, recursion, func.return with 0/1/N operands.
func.func private @ext_noargs()
func.func private @ext_scalar(f32) -> f32
func.func private @ext_pair(i32, i64) -> (i32, i64)
func.func private @ext_named(%x: f64, %y: f64) -> f64
func.func private @ext_attrs(i32 {cuprite.nonneg}, f32) -> (f32 {cuprite.finite})
func.func private @ext_visible_attr() attributes {cuprite.pure}

func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  return %q, %r : i32, i32
}

func.func @swap3(%a: f32, %b: i64, %c: i1) -> (i1, i64, f32) {
  return %c, %b, %a : i1, i64, f32
}

func.func @nothing() {
  return
}

func.func @uses_calls(%x: f32, %i: i32, %j: i64) -> f32 {
  func.call @ext_noargs() : () -> ()
  call @nothing() : () -> ()
  %y = func.call @ext_scalar(%x) : (f32) -> f32
  %p:2 = func.call @ext_pair(%i, %j) : (i32, i64) -> (i32, i64)
  %q, %r = call @divmod(%p#0, %i) : (i32, i32) -> (i32, i32)
  %true = arith.constant true
  %s:3 = call @swap3(%y, %p#1, %true) : (f32, i64, i1) -> (i1, i64, f32)
  %z = call @ext_attrs(%q, %s#2) : (i32, f32) -> f32
  return %z : f32
}

func.func @factorial(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %le = arith.cmpi sle, %n, %one : i64
  %r = scf.if %le -> (i64) {
    scf.yield %one : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @factorial(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}

func.func @hypot_via_decl(%x: f64, %y: f64) -> f64 attributes {cuprite.inline_hint = "always"} {
  %h = call @ext_named(%x, %y) : (f64, f64) -> f64
  return %h : f64
}

func.func @annotated(%a: i32 {cuprite.nonneg}, %b: i32) -> (i32 {cuprite.nonneg}, i1) {
  %s = arith.addi %a, %b overflow<nsw> : i32
  %z = arith.constant 0 : i32
  %ok = arith.cmpi sge, %s, %z : i32
  return %s, %ok : i32, i1
}

func.func private @internal_helper(%v: index) -> index {
  %c2 = arith.constant 2 : index
  %r = arith.muli %v, %c2 : index
  return %r : index
}

func.func @calls_in_loop(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %d = func.call @internal_helper(%i) : (index) -> index
    %s = arith.addi %acc, %d : index
    scf.yield %s : index
  }
  return %r : index
}
