//! Texture objects: what a `cudaTextureObject_t` refers to, and the fetch (`tex.*`).
//!
//! A launch declares its textures (see [`crate::spec`]); a texture object is the texture's
//! 1-based index (0 is no texture). A fetch follows CUDA's texture model:
//!
//! - coordinates are unnormalized (texel `i` covers [i, i+1)) or normalized ([0, 1) over
//!   the width); `tex1Dfetch` takes an integer index and never filters;
//! - addressing outside the texture: `clamp` (the edge texel), `border` (zeros), `wrap`
//!   and `mirror` (normalized coordinates only, else clamp, as the hardware);
//! - filtering: `point` (the texel the coordinate falls in) or `linear` (between the
//!   centers around `x - 0.5`, with the weight in 1.8 fixed point as the hardware keeps it);
//! - read mode `element` returns the channels as stored, `normalized` maps 8- and 16-bit
//!   integers to [0, 1] (or [-1, 1]) floats; missing channels read 0.
//!
//! Cube maps and mipmap levels other than 0 are not modelled (an error names them).

use crate::code::Ty;

/// The geometry of a fetch (PTX's `.1d`, `.2d`, `.3d`, `.a1d`, `.a2d`, `.cube`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Geom {
    D1,
    D2,
    D3,
    A1,
    A2,
    Cube,
}

impl Geom {
    pub fn parse(s: &str) -> Option<Geom> {
        Some(match s {
            "1d" => Geom::D1,
            "2d" => Geom::D2,
            "3d" => Geom::D3,
            "a1d" => Geom::A1,
            "a2d" => Geom::A2,
            "cube" => Geom::Cube,
            _ => return None,
        })
    }
    /// Spatial coordinates (the layer of an array comes first and is not one).
    pub fn dims(self) -> usize {
        match self {
            Geom::D1 | Geom::A1 => 1,
            Geom::D2 | Geom::A2 => 2,
            Geom::D3 | Geom::Cube => 3,
        }
    }
    pub fn layered(self) -> bool {
        matches!(self, Geom::A1 | Geom::A2)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Address {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

/// One texture: its texels (channels interleaved, x fastest, then y, z, layer) and how it
/// is sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub name: String,
    /// The channel type (`f32`, `u8`, `i16`, ...) and whether it is signed.
    pub elem: Ty,
    pub signed: bool,
    pub channels: usize,
    /// Width, height, depth (1 when unused) and layers.
    pub size: [usize; 3],
    pub layers: usize,
    pub data: Vec<u8>,
    pub linear: bool,
    pub normalized_coords: bool,
    pub normalized_read: bool,
    pub address: Address,
}

impl Texture {
    /// Channel `c` of texel (x, y, z, layer) as the read mode gives it: f32 bits for a float
    /// or normalized read, else the integer (sign-extended to 32 bits).
    fn channel(&self, at: [usize; 3], layer: usize, c: usize, float_out: bool) -> u32 {
        if c >= self.channels {
            return 0;
        }
        let [w, h, d] = self.size;
        let idx = (((layer * d + at[2]) * h + at[1]) * w + at[0]) * self.channels + c;
        let n = self.elem.bytes() as usize;
        let bits = crate::memory::read_le(&self.data[idx * n..idx * n + n]);
        if self.elem.is_float() {
            return bits as u32;
        }
        let v = if self.signed { self.elem.sext(bits) } else { bits as i64 };
        if self.normalized_read && n <= 2 {
            let max = if self.signed { (1i64 << (8 * n - 1)) - 1 } else { (1i64 << (8 * n)) - 1 };
            return ((v as f32 / max as f32).max(-1.0)).to_bits();
        }
        if float_out {
            (v as f32).to_bits()
        } else {
            v as u32
        }
    }

    /// The texel index along one axis of `n` texels for integer coordinate `i`, or `None`
    /// (a border read).
    fn address(&self, i: i64, n: usize) -> Option<usize> {
        let n = n as i64;
        if (0..n).contains(&i) {
            return Some(i as usize);
        }
        match self.address {
            Address::Border => None,
            Address::Wrap if self.normalized_coords => Some(i.rem_euclid(n) as usize),
            Address::Mirror if self.normalized_coords => {
                let m = i.rem_euclid(2 * n);
                Some(if m < n { m } else { 2 * n - 1 - m } as usize)
            }
            _ => Some(i.clamp(0, n - 1) as usize),
        }
    }

    /// A fetch: the four channels' bits. `coords` are f32 bits (or integers with
    /// `int_coords`), the layer first for an array; `float_out` when the result is `f32`.
    pub fn fetch(&self, geom: Geom, coords: &[u64], int_coords: bool, float_out: bool) -> Result<[u32; 4], String> {
        if geom == Geom::Cube {
            return Err(format!("texture '{}': cube map fetches are not simulated", self.name));
        }
        let (layer, cs) = if geom.layered() { ((coords[0] as u32 as i32).max(0) as usize, &coords[1..]) } else { (0, coords) };
        let layer = layer.min(self.layers.saturating_sub(1));
        let dims = geom.dims();
        let mut out = [0u32; 4];
        if int_coords {
            // tex1Dfetch: an index, no filtering, zeros outside.
            let i = cs[0] as u32 as i32 as i64;
            if i < 0 || i as usize >= self.size[0] {
                return Ok(out);
            }
            for (c, o) in out.iter_mut().enumerate() {
                *o = self.channel([i as usize, 0, 0], layer, c, float_out);
            }
            return Ok(out);
        }
        // Unnormalized coordinates, wrapped or mirrored first when normalized.
        let mut u = [0f32; 3];
        for k in 0..dims {
            let x = f32::from_bits(cs[k] as u32);
            let n = self.size[k] as f32;
            u[k] = if self.normalized_coords {
                match self.address {
                    Address::Wrap => (x - x.floor()) * n,
                    Address::Mirror => {
                        let t = x - 2.0 * (x / 2.0).floor();
                        (if t > 1.0 { 2.0 - t } else { t }) * n
                    }
                    _ => x * n,
                }
            } else {
                x
            };
        }
        if !self.linear || !float_out {
            let mut at = [0usize; 3];
            for k in 0..3 {
                let i = if k < dims { u[k].floor() as i64 } else { 0 };
                match self.address(i, self.size[k]) {
                    Some(v) => at[k] = v,
                    None => return Ok(out),
                }
            }
            for (c, o) in out.iter_mut().enumerate() {
                *o = self.channel(at, layer, c, float_out);
            }
            return Ok(out);
        }
        // Linear: the 2^dims texels around u - 0.5, weights in 1.8 fixed point.
        let mut base = [0i64; 3];
        let mut frac = [0f32; 3];
        for k in 0..dims {
            let b = u[k] - 0.5;
            base[k] = b.floor() as i64;
            frac[k] = ((b - b.floor()) * 256.0).round() / 256.0;
        }
        let mut acc = [0f32; 4];
        for corner in 0..(1usize << dims) {
            let mut w = 1f32;
            let mut at = [0usize; 3];
            let mut border = false;
            for k in 0..3 {
                let (i, wk) = if k < dims {
                    let hi = corner >> k & 1 == 1;
                    (base[k] + i64::from(hi), if hi { frac[k] } else { 1.0 - frac[k] })
                } else {
                    (0, 1.0)
                };
                w *= wk;
                match self.address(i, self.size[k]) {
                    Some(v) => at[k] = v,
                    None => border = true,
                }
            }
            if border || w == 0.0 {
                continue;
            }
            for (c, a) in acc.iter_mut().enumerate() {
                *a += w * f32::from_bits(self.channel(at, layer, c, true));
            }
        }
        for (o, a) in out.iter_mut().zip(acc) {
            *o = a.to_bits();
        }
        Ok(out)
    }
}
