//! How a kernel's parameters map to its `nvvm` arguments.
//!
//! A kernel parameter of struct (or array) type passed by value travels in `nvvm` as its
//! scalars, one argument each, like any aggregate (see [`crate::cuda::layout::leaves`]). At the
//! kernel's boundary it is one block of bytes in C layout: the host passes the struct's
//! bytes, and PTX declares `.param .align A .b8 k_param_N[S]` and reads each scalar with
//! `ld.param [k_param_N+offset]`, as NVRTC does.
//!
//! A kernel with such a parameter carries the attribute [`BYVAL`]: an array with one entry
//! per kernel parameter, `array<i64>` (empty) for a scalar, which takes one argument, and
//! `array<i64: size, align, offset...>` for a struct, which takes one argument per offset
//! (none for an empty struct, which is still a parameter of its own).

use cuprite_ir::{AttrKind, Context, OpId};

/// The `nvvm.func` attribute describing a kernel's by-value struct parameters.
pub const BYVAL: &str = "cuprite.byval";

/// One PTX-level kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelParam {
    /// A scalar: the index of its `nvvm` argument.
    Scalar(usize),
    /// A struct by value: its size and alignment, and its scalars' (argument index, byte
    /// offset).
    ByVal { size: u64, align: u64, leaves: Vec<(usize, u64)> },
}

/// The PTX parameters of kernel `f` with `n` `nvvm` arguments, in order (one scalar per
/// argument without [`BYVAL`]).
pub fn kernel_params(ctx: &Context, f: OpId, n: usize) -> Vec<KernelParam> {
    let entries: Vec<Vec<i64>> = match ctx.get_attr(f, BYVAL).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(xs)) => xs
            .iter()
            .map(|&x| match ctx.attr_kind(x) {
                AttrKind::DenseArray { values, .. } => values.clone(),
                _ => Vec::new(),
            })
            .collect(),
        _ => return (0..n).map(KernelParam::Scalar).collect(),
    };
    let mut out = Vec::with_capacity(entries.len());
    let mut arg = 0;
    for e in entries {
        if let [size, align, offsets @ ..] = e.as_slice() {
            let leaves = offsets.iter().enumerate().map(|(k, &o)| (arg + k, o as u64)).collect();
            arg += offsets.len();
            out.push(KernelParam::ByVal { size: *size as u64, align: *align as u64, leaves });
        } else {
            out.push(KernelParam::Scalar(arg));
            arg += 1;
        }
    }
    out
}

/// The [`BYVAL`] value for `params`: `None` for a scalar, `Some((size, align, offsets))`
/// for a struct.
pub fn byval_attr(ctx: &mut Context, params: &[Option<(u64, u64, Vec<u64>)>]) -> cuprite_ir::AttrId {
    let i64t = ctx.i64();
    let entries = params
        .iter()
        .map(|p| {
            let values = match p {
                Some((size, align, offs)) => [*size as i64, *align as i64].into_iter().chain(offs.iter().map(|&o| o as i64)).collect(),
                None => Vec::new(),
            };
            ctx.attr(AttrKind::DenseArray { elem: i64t, values })
        })
        .collect();
    ctx.attr(AttrKind::Array(entries))
}
