// The ptx dialect's per-mnemonic verifier: every instruction's `mods` is one its mnemonic
// takes (dialects/src/ptx/verify.rs), checked at the op.
module {
  ptx.func entry @unknown_modifier attributes {params = []} {
    %0 = reg : i32
    %1 = reg : i32
    add "approx.s32"(%0, %1, %1) : i32, i32, i32
    ret
  }
}
// -----
module {
  ptx.func entry @missing_type attributes {params = []} {
    %0 = reg : i64
    %1 = reg : i32
    ld "global"(%1, %0) : i32, i64
    ret
  }
}
// -----
module {
  ptx.func entry @int_type_on_float_op attributes {params = []} {
    %0 = reg : i32
    sqrt "rn.s32"(%0, %0) : i32, i32
    ret
  }
}
// -----
module {
  ptx.func entry @float_type_on_bit_op attributes {params = []} {
    %0 = reg : f32
    popc "f32"(%0, %0) : f32, f32
    ret
  }
}
