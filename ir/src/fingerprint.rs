//! Structural fingerprints of ops: a 128-bit hash of everything the printer shows of an op
//! (its name, operands, result types, attributes and properties, regions, blocks, block
//! arguments and successors, recursively), without locations, and independent of the
//! order in which a context interned its types, attributes and values. Two ops with the
//! same fingerprint print the same text (up to hash collisions, which at 128 bits a
//! database of an editor's functions does not meet); the incremental database compares
//! functions by it instead of by their printed text, and prints only the new ones.
//!
//! Values and blocks are numbered in the op's preorder (block arguments, then each op's
//! results), as the printer numbers them; types and attributes are hashed by their printed
//! form, each once per [`Fingerprinter`] (which a caller reuses across the ops of one
//! context).

use crate::{
    attrs::AttrId,
    context::{Context, OpId},
    types::TypeId,
};
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};

/// Fingerprints ops of one context, caching the hashes of its types, attributes and
/// names.
#[derive(Default)]
pub struct Fingerprinter {
    types: FxHashMap<TypeId, u128>,
    attrs: FxHashMap<AttrId, (u128, Vec<String>)>,
    /// Op and attribute names (by their interned symbol).
    names: FxHashMap<crate::symbol::Symbol, u128>,
    /// The numbers of the values and blocks of the op being fingerprinted, plus one, by
    /// index (0: outside it); reset after each op.
    values: Vec<u32>,
    blocks: Vec<u32>,
}

/// A 128-bit hash: two multiply-xorshift lanes (fast on the many small words an op is
/// made of; the inputs are compiler IR, or a compiler's tokens, not adversarial). The
/// frontend keys declarations' tokens with it too.
pub struct H2(u64, u64);

impl Hasher for H2 {
    fn finish(&self) -> u64 {
        self.0 ^ self.1.rotate_left(32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        self.write_u64(bytes.len() as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        self.1 = (self.1 ^ x.rotate_left(17)).wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(31);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

impl Default for H2 {
    fn default() -> Self {
        H2::new()
    }
}

impl H2 {
    pub fn new() -> H2 {
        H2(0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344)
    }
    pub fn put<T: Hash + ?Sized>(&mut self, v: &T) {
        v.hash(self);
    }
    /// The 128-bit hash of what was written.
    pub fn finish128(&self) -> u128 {
        // Final avalanche of each lane.
        let f = |mut x: u64| {
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            x ^ (x >> 33)
        };
        (u128::from(f(self.0)) << 64) | u128::from(f(self.1 ^ self.0.rotate_left(7)))
    }
}

fn hash_str(s: &str) -> u128 {
    let mut h = H2::new();
    h.put(s);
    h.finish128()
}

/// The `@name`s printed IR names (symbol references, and a symbol's own name in its
/// op's header), in order, with repeats.
pub fn symbol_refs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(k) = text[i..].find('@') {
        let s = i + k + 1;
        let mut e = s;
        while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'_' | b'.' | b'$')) {
            e += 1;
        }
        out.push(&text[s..e]);
        i = e.max(s);
    }
    out
}

/// What [`Fingerprinter::op`] found: the fingerprint and the symbols the op's attributes
/// name (`@f` in a call, `@g` in an address), sorted, without duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    pub hash: u128,
    pub symbols: Vec<String>,
}

impl Fingerprinter {
    fn ty(&mut self, ctx: &Context, t: TypeId) -> u128 {
        *self.types.entry(t).or_insert_with(|| hash_str(&crate::print::type_to_string(ctx, t)))
    }

    fn attr(&mut self, ctx: &Context, a: AttrId) -> &(u128, Vec<String>) {
        self.attrs.entry(a).or_insert_with(|| {
            let text = crate::print::attr_to_string(ctx, a);
            (hash_str(&text), symbol_refs(&text).into_iter().map(str::to_string).collect())
        })
    }

    /// The fingerprint of `op` and everything nested in it.
    pub fn op(&mut self, ctx: &Context, op: OpId) -> Fingerprint {
        // Number the values and blocks first: a use may come before its definition in
        // region order (blocks out of dominance order, graph regions).
        let ops = crate::walk::collect_preorder(ctx, op);
        let mut values = std::mem::take(&mut self.values);
        let mut blocks = std::mem::take(&mut self.blocks);
        values.resize(values.len().max(ctx.value_capacity()), 0);
        blocks.resize(blocks.len().max(ctx.block_capacity()), 0);
        let (mut nv, mut nb) = (0u32, 0u32);
        for &o in &ops {
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    nb += 1;
                    blocks[b.index()] = nb;
                    for &a in ctx.block_args(b) {
                        nv += 1;
                        values[a.index()] = nv;
                    }
                }
            }
            for &v in ctx.results(o) {
                nv += 1;
                values[v.index()] = nv;
            }
        }
        let mut h = H2::new();
        let mut symbols: Vec<String> = Vec::new();
        self.region_walk(ctx, op, &values, &blocks, &mut h, &mut symbols);
        for &o in &ops {
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    blocks[b.index()] = 0;
                    for &a in ctx.block_args(b) {
                        values[a.index()] = 0;
                    }
                }
            }
            for &v in ctx.results(o) {
                values[v.index()] = 0;
            }
        }
        self.values = values;
        self.blocks = blocks;
        symbols.sort();
        symbols.dedup();
        Fingerprint { hash: h.finish128(), symbols }
    }

    fn name(&mut self, ctx: &Context, name: crate::symbol::Symbol) -> u128 {
        *self.names.entry(name).or_insert_with(|| hash_str(ctx.str(name)))
    }

    fn region_walk(&mut self, ctx: &Context, op: OpId, values: &[u32], blocks: &[u32], h: &mut H2, symbols: &mut Vec<String>) {
        let name = self.name(ctx, ctx.op_name(op));
        h.put(&name);
        let n = ctx.num_operands(op);
        h.put(&n);
        for i in 0..n {
            let v = ctx.operand(op, i);
            // A value from outside the op: its type (the caller's context decides the rest).
            match values.get(v.index()).copied().unwrap_or(0) {
                0 => {
                    let t = self.ty(ctx, ctx.value_type(v));
                    h.put(&(1u8, t));
                }
                n => h.put(&(0u8, u64::from(n - 1))),
            }
        }
        h.put(&ctx.results(op).len());
        for &r in ctx.results(op) {
            let t = self.ty(ctx, ctx.value_type(r));
            h.put(&t);
        }
        for (kind, list) in [(0u8, ctx.attrs(op)), (1u8, ctx.props(op))] {
            h.put(&(kind, list.len()));
            for &(name, a) in list {
                let nh = self.name(ctx, name);
                h.put(&nh);
                let (ah, syms) = self.attr(ctx, a);
                h.put(ah);
                symbols.extend(syms.iter().cloned());
            }
        }
        h.put(&ctx.num_successors(op));
        for b in ctx.successors(op) {
            h.put(&blocks.get(b.index()).copied().map_or(u64::MAX, |n| u64::from(n).wrapping_sub(1)));
        }
        h.put(&ctx.regions(op).len());
        for &r in ctx.regions(op) {
            h.put(&ctx.region_blocks(r).len());
            for &b in ctx.region_blocks(r) {
                h.put(&ctx.block_args(b).len());
                for &a in ctx.block_args(b) {
                    let t = self.ty(ctx, ctx.value_type(a));
                    h.put(&t);
                }
                for o in ctx.block_ops(b) {
                    self.region_walk(ctx, o, values, blocks, h, symbols);
                    h.put(&0xb10cu32);
                }
                h.put(&0xe0bu32);
            }
        }
    }
}
