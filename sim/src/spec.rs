//! Launch descriptions, their data, and what comes out.
//!
//! An argument is `name:type=value` for a scalar or `name:type[N]=init` for a buffer in
//! global memory (the kernel gets its address), with `type` one of `i8 i16 i32 i64 u8
//! u16 u32 u64 f32 f64` and `init` one of:
//! - `zeros`, `iota` (0, 1, 2, ...), `fill:V`;
//! - `random:SEED` (floats uniform in [-1, 1), integers in [0, 100)) or
//!   `random:SEED:LO:HI` (in [LO, HI));
//! - `[v0, v1, ...]` (exactly N values).
//!
//! A struct passed by value is `name:{type, type[N], {nested}, ...}=[v0, v1, ...]`: its
//! fields in order, laid out as C lays them out (each field at its alignment, the size a
//! multiple of the largest), with one value per scalar (or `zeros`); a `u64` field's value
//! `@buf` is the address of buffer `buf` (an argument's or one of the launch's `buffers`).
//!
//! A launch spec is a TOML file next to a test kernel, one `[[launch]]` table per launch:
//!
//! ```toml
//! [[launch]]
//! kernel = "saxpy"
//! grid = 4                 # or [x, y, z]
//! block = [128]
//! shared = 0               # dynamic shared memory bytes (optional)
//! args = ["n:i32=1000", "a:f32=2.5", "x:f32[1000]=random:1", "y:f32[1000]=random:2"]
//! globals = ["coeffs:f32[4]=[1, 2, 3, 4]"]   # module globals set before the launch
//! buffers = ["in:f32[8]=iota"]   # buffers a struct argument points to (`@in`)
//! tolerance_ulp = 2        # optional: float outputs may differ by this many ulp
//! tolerance_reason = "fma contraction at the ptx level"   # required with a tolerance
//! ```

use crate::code::Ty;
use crate::memory::Global;

/// An argument's type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArgTy {
    pub ty: Ty,
    pub signed: bool,
}

impl ArgTy {
    pub fn parse(s: &str) -> Option<ArgTy> {
        let (ty, signed) = match s {
            "i8" => (Ty::I8, true),
            "i16" => (Ty::I16, true),
            "i32" => (Ty::I32, true),
            "i64" => (Ty::I64, true),
            "u8" | "bool" => (Ty::I8, false),
            "u16" => (Ty::I16, false),
            "u32" => (Ty::I32, false),
            "u64" => (Ty::I64, false),
            "f32" => (Ty::F32, true),
            "f64" => (Ty::F64, true),
            _ => return None,
        };
        Some(ArgTy { ty, signed })
    }
    pub fn name(self) -> &'static str {
        match (self.ty, self.signed) {
            (Ty::I8, true) => "i8",
            (Ty::I16, true) => "i16",
            (Ty::I32, true) => "i32",
            (Ty::I64, true) => "i64",
            (Ty::I8, false) => "u8",
            (Ty::I16, false) => "u16",
            (Ty::I32, false) => "u32",
            (Ty::I64, false) => "u64",
            (Ty::F32, _) => "f32",
            (Ty::F64, _) => "f64",
            _ => "?",
        }
    }
    /// Bits of the value `text` (an integer or float literal).
    fn value(self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        let bad = || format!("'{t}' is not a valid {} value", self.name());
        if self.ty.is_float() {
            let v: f64 = match t {
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" => f64::NAN,
                _ => t.parse().map_err(|_| bad())?,
            };
            return Ok(if self.ty == Ty::F32 { (v as f32).to_bits() as u64 } else { v.to_bits() });
        }
        let (neg, digits) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let mag: u128 = if let Some(h) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
            u128::from_str_radix(h, 16).map_err(|_| bad())?
        } else {
            digits.parse().map_err(|_| bad())?
        };
        let bits = self.ty.bits();
        let (lo, hi): (i128, i128) = if self.signed { (-(1i128 << (bits - 1)), (1i128 << bits) - 1) } else { (0, (1i128 << bits) - 1) };
        let v = if neg { -(mag as i128) } else { mag as i128 };
        if v < lo || v > hi {
            return Err(format!("{t} does not fit in {}", self.name()));
        }
        Ok(v as u64 & self.ty.mask())
    }
}

/// A struct argument's C layout: size, alignment, and its scalars (offset, type).
#[derive(Clone, Debug, PartialEq)]
pub struct StructArg {
    pub size: u64,
    pub align: u64,
    pub leaves: Vec<(u64, ArgTy)>,
}

impl StructArg {
    /// Parses `{f32, i32[2], {u8, f64}}` (the braces included).
    pub fn parse(s: &str) -> Result<StructArg, String> {
        let mut toks = s.trim();
        let st = Self::fields(&mut toks)?;
        if !toks.trim().is_empty() {
            return Err(format!("unexpected '{}' after the struct type", toks.trim()));
        }
        Ok(st)
    }

    /// `{ field, ... }` at the start of `s`; advances `s` past it.
    fn fields(s: &mut &str) -> Result<StructArg, String> {
        *s = s.trim_start().strip_prefix('{').ok_or("expected '{'")?;
        let mut st = StructArg { size: 0, align: 1, leaves: Vec::new() };
        loop {
            *s = s.trim_start();
            if let Some(r) = s.strip_prefix('}') {
                *s = r;
                break;
            }
            // One field: a scalar type or a nested struct, then an optional [N].
            let (size, align, leaves) = if s.starts_with('{') {
                let inner = Self::fields(s)?;
                (inner.size, inner.align, inner.leaves)
            } else {
                let end = s.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(s.len());
                let name = &s[..end];
                let ty = ArgTy::parse(name).ok_or_else(|| format!("unknown field type '{name}'"))?;
                *s = &s[end..];
                let b = ty.ty.bytes() as u64;
                (b, b, vec![(0, ty)])
            };
            *s = s.trim_start();
            let mut count = 1u64;
            if let Some(r) = s.strip_prefix('[') {
                let (n, rest) = r.split_once(']').ok_or("expected ']'")?;
                count = n.trim().parse().map_err(|_| format!("'{n}' is not a length"))?;
                *s = rest;
            }
            let start = st.size.div_ceil(align) * align;
            for k in 0..count {
                st.leaves.extend(leaves.iter().map(|&(o, t)| (start + k * size + o, t)));
            }
            st.size = start + count * size;
            st.align = st.align.max(align);
            *s = s.trim_start();
            if let Some(r) = s.strip_prefix(',') {
                *s = r;
            } else if !s.starts_with('}') {
                return Err(format!("expected ',' or '}}' in the struct type, found '{s}'"));
            }
        }
        st.size = st.size.div_ceil(st.align) * st.align;
        if st.leaves.is_empty() {
            return Err("an empty struct".into());
        }
        Ok(st)
    }

    /// The struct's bytes from `init` (`zeros` or one value per scalar); a value `@name`
    /// is the address of buffer `name` (from `addr`).
    fn bytes(&self, init: &str, addr: &dyn Fn(&str) -> Option<u64>) -> Result<Vec<u8>, String> {
        let mut out = vec![0u8; self.size as usize];
        if init == "zeros" {
            return Ok(out);
        }
        let list = init.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or("a struct's value is [v, ...] or zeros")?;
        let vals: Vec<&str> = list.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        if vals.len() != self.leaves.len() {
            return Err(format!("{} values for a struct of {} scalars", vals.len(), self.leaves.len()));
        }
        for (&(off, ty), v) in self.leaves.iter().zip(vals) {
            let n = ty.ty.bytes() as usize;
            let bits = match v.strip_prefix('@') {
                Some(b) if n == 8 => addr(b).ok_or_else(|| format!("no buffer named '{b}'"))?,
                Some(_) => return Err(format!("'{v}': a buffer's address needs a u64 field")),
                None => ty.value(v)?,
            };
            out[off as usize..off as usize + n].copy_from_slice(&bits.to_le_bytes()[..n]);
        }
        Ok(out)
    }
}

/// One argument of a launch.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgSpec {
    pub name: String,
    /// The element type (a scalar or buffer); `u8` for a struct.
    pub ty: ArgTy,
    /// `Some(n)`: a buffer of n elements.
    pub len: Option<usize>,
    /// A struct passed by value.
    pub fields: Option<StructArg>,
    pub init: String,
}

impl ArgSpec {
    /// Parses `name:type=value` or `name:type[N]=init`.
    pub fn parse(s: &str) -> Result<ArgSpec, String> {
        let (lhs, init) = s.split_once('=').ok_or_else(|| format!("argument '{s}': expected name:type=value"))?;
        let (name, ty) = lhs.split_once(':').ok_or_else(|| format!("argument '{s}': expected name:type=value"))?;
        if ty.trim_start().starts_with('{') {
            let st = StructArg::parse(ty).map_err(|e| format!("argument '{s}': {e}"))?;
            let init = init.trim().to_string();
            st.bytes(&init, &|_| Some(0)).map_err(|e| format!("argument '{s}': {e}"))?;
            let ty = ArgTy { ty: Ty::I8, signed: false };
            return Ok(ArgSpec { name: name.trim().to_string(), ty, len: None, fields: Some(st), init });
        }
        let (ty, len) = match ty.split_once('[') {
            Some((t, n)) => {
                let n = n.strip_suffix(']').ok_or_else(|| format!("argument '{s}': expected type[N]"))?;
                let n: usize = n.trim().parse().map_err(|_| format!("argument '{s}': '{n}' is not a length"))?;
                (t, Some(n))
            }
            None => (ty, None),
        };
        let ty = ArgTy::parse(ty.trim()).ok_or_else(|| format!("argument '{s}': unknown type '{ty}' (i8..i64, u8..u64, f32, f64)"))?;
        let a = ArgSpec { name: name.trim().to_string(), ty, len, fields: None, init: init.trim().to_string() };
        if a.len.is_none() && !a.init.starts_with('@') {
            a.ty.value(&a.init).map_err(|e| format!("argument '{s}': {e}"))?;
        }
        Ok(a)
    }

    /// The buffer's initial bytes.
    pub fn data(&self) -> Result<Vec<u8>, String> {
        if let Some(st) = &self.fields {
            return st.bytes(&self.init, &|_| None).map_err(|e| format!("argument '{}': {e}", self.name));
        }
        let n = self.len.unwrap_or(1);
        let ty = self.ty;
        let size = ty.ty.bytes() as usize;
        if n.saturating_mul(size) > 1 << 32 {
            return Err(format!("argument '{}': {n} elements is more than the simulator's 4 GiB per buffer", self.name));
        }
        let mut out = Vec::with_capacity(n * size);
        let mut push = |bits: u64| out.extend_from_slice(&bits.to_le_bytes()[..size]);
        let init = self.init.as_str();
        let err = |m: String| format!("argument '{}': {m}", self.name);
        if init == "zeros" {
            (0..n).for_each(|_| push(0));
        } else if init == "iota" {
            for i in 0..n {
                push(if ty.ty.is_float() { ty.value(&format!("{i}")).unwrap_or(0) } else { i as u64 & ty.ty.mask() });
            }
        } else if let Some(v) = init.strip_prefix("fill:") {
            let bits = ty.value(v).map_err(err)?;
            (0..n).for_each(|_| push(bits));
        } else if let Some(r) = init.strip_prefix("random:") {
            let parts: Vec<&str> = r.split(':').collect();
            let seed: u64 = parts[0].parse().map_err(|_| err(format!("'{}' is not a seed", parts[0])))?;
            let mut rng = crate::machine::Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x1234_5678);
            if ty.ty.is_float() {
                let (lo, hi) = match parts.as_slice() {
                    [_, lo, hi] => (
                        lo.parse::<f64>().map_err(|_| err(format!("bad range {lo}")))?,
                        hi.parse::<f64>().map_err(|_| err(format!("bad range {hi}")))?,
                    ),
                    _ => (-1.0, 1.0),
                };
                for _ in 0..n {
                    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    let v = lo + (hi - lo) * u;
                    push(if ty.ty == Ty::F32 { (v as f32).to_bits() as u64 } else { v.to_bits() });
                }
            } else {
                let (lo, hi) = match parts.as_slice() {
                    [_, lo, hi] => (
                        lo.parse::<i128>().map_err(|_| err(format!("bad range {lo}")))?,
                        hi.parse::<i128>().map_err(|_| err(format!("bad range {hi}")))?,
                    ),
                    _ => (0, 100),
                };
                if hi <= lo {
                    return Err(err(format!("empty range [{lo}, {hi})")));
                }
                let span = (hi - lo) as u128;
                for _ in 0..n {
                    let v = lo + ((rng.next_u64() as u128 * span) >> 64) as i128;
                    push(v as u64 & ty.ty.mask());
                }
            }
        } else if let Some(list) = init.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let vals: Vec<&str> = list.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
            if vals.len() != n {
                return Err(err(format!("{} values for {n} elements", vals.len())));
            }
            for v in vals {
                push(ty.value(v).map_err(err)?);
            }
        } else {
            return Err(err(format!("unknown initializer '{init}' (zeros, iota, fill:V, random:SEED[:LO:HI], [v, ...])")));
        }
        Ok(out)
    }
}

/// A whole launch: kernel, dimensions, arguments, and how outputs may differ.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSpec {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u64,
    pub args: Vec<ArgSpec>,
    /// Module globals set before the launch (`__constant__` data), as `name:type[N]=init`.
    pub globals: Vec<ArgSpec>,
    /// Buffers that are not arguments themselves: a struct argument points to them
    /// (`@name`); their contents after the run are outputs like the arguments' buffers.
    pub buffers: Vec<ArgSpec>,
    /// Textures a texture-object argument (`t:u64=@name`) refers to.
    pub textures: Vec<crate::texture::Texture>,
    pub tolerance_ulp: u64,
    pub tolerance_reason: Option<String>,
}

/// Parses `64`, `64,2` or `64x2x1` into three dimensions.
pub fn parse_dims(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split([',', 'x']).map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("'{s}': expected X, X,Y or X,Y,Z"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p.parse().map_err(|_| format!("'{s}': '{p}' is not a dimension"))?;
        if d[i] == 0 {
            return Err(format!("'{s}': dimensions must be at least 1"));
        }
    }
    Ok(d)
}

/// Reads the `[[launch]]` tables of a TOML launch spec.
pub fn parse_toml(text: &str) -> Result<Vec<LaunchSpec>, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("invalid TOML: {e}"))?;
    let launches = match table.get("launch") {
        Some(toml::Value::Array(a)) => a,
        _ => return Err("expected one or more [[launch]] tables".into()),
    };
    let dims = |v: Option<&toml::Value>, what: &str| -> Result<[u32; 3], String> {
        match v {
            Some(toml::Value::Integer(i)) => parse_dims(&i.to_string()),
            Some(toml::Value::Array(a)) => {
                let s: Vec<String> = a.iter().map(|x| x.as_integer().map(|i| i.to_string()).unwrap_or_default()).collect();
                parse_dims(&s.join(","))
            }
            Some(toml::Value::String(s)) => parse_dims(s),
            _ => Err(format!("'{what}' is missing")),
        }
    };
    let mut out = Vec::new();
    for (i, l) in launches.iter().enumerate() {
        let t = l.as_table().ok_or("each [[launch]] must be a table")?;
        let ctx = |m: String| format!("launch {}: {m}", i + 1);
        let kernel = t.get("kernel").and_then(|k| k.as_str()).ok_or_else(|| ctx("'kernel' is missing".into()))?.to_string();
        let grid = dims(t.get("grid"), "grid").map_err(ctx)?;
        let block = dims(t.get("block"), "block").map_err(ctx)?;
        let shared = t.get("shared").and_then(|s| s.as_integer()).unwrap_or(0).max(0) as u64;
        let args = match t.get("args") {
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().ok_or_else(|| ctx("args must be strings".into())).and_then(|s| ArgSpec::parse(s).map_err(ctx)))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
            _ => return Err(ctx("'args' must be an array of strings".into())),
        };
        let globals = match t.get("globals") {
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().ok_or_else(|| ctx("globals must be strings".into())).and_then(|s| ArgSpec::parse(s).map_err(ctx)))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
            _ => return Err(ctx("'globals' must be an array of strings".into())),
        };
        let buffers = match t.get("buffers") {
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().ok_or_else(|| ctx("buffers must be strings".into())).and_then(|s| ArgSpec::parse(s).map_err(ctx)))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
            _ => return Err(ctx("'buffers' must be an array of strings".into())),
        };
        if let Some(b) = buffers.iter().find(|b| b.len.is_none() || b.fields.is_some()) {
            return Err(ctx(format!("buffer '{}' needs a length: name:type[N]=init", b.name)));
        }
        let textures = match t.get("textures") {
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().ok_or_else(|| ctx("textures must be strings".into())).and_then(|s| parse_texture(s).map_err(ctx)))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
            _ => return Err(ctx("'textures' must be an array of strings".into())),
        };
        let tolerance_ulp = t.get("tolerance_ulp").and_then(|s| s.as_integer()).unwrap_or(0).max(0) as u64;
        let tolerance_reason = t.get("tolerance_reason").and_then(|s| s.as_str()).map(str::to_string);
        if tolerance_ulp > 0 && tolerance_reason.is_none() {
            return Err(ctx("a tolerance needs a 'tolerance_reason'".into()));
        }
        for k in t.keys() {
            if !["kernel", "grid", "block", "shared", "args", "globals", "buffers", "textures", "tolerance_ulp", "tolerance_reason"]
                .contains(&k.as_str())
            {
                return Err(ctx(format!("unknown key '{k}'")));
            }
        }
        out.push(LaunchSpec { kernel, grid, block, shared, args, globals, buffers, textures, tolerance_ulp, tolerance_reason });
    }
    Ok(out)
}

/// A texture: `name:TYPE[W(,H(,D))]=init` then options `filter=point|linear`,
/// `address=clamp|border|wrap|mirror`, `coords=unnormalized|normalized`,
/// `read=element|normalized`, `layers=N`; TYPE is a channel type with an optional channel
/// count (`f32`, `u8x4`, `i16x2`); `init` fills all channels of all texels as a buffer's.
pub fn parse_texture(s: &str) -> Result<crate::texture::Texture, String> {
    use crate::texture::{Address, Texture};
    let mut words = s.split_whitespace();
    let head = words.next().ok_or("an empty texture")?;
    let (lhs, init) = head.split_once('=').ok_or_else(|| format!("texture '{s}': expected name:type[W,H]=init"))?;
    let (name, ty) = lhs.split_once(':').ok_or_else(|| format!("texture '{s}': expected name:type[W,H]=init"))?;
    let (ty, dims) = ty.split_once('[').ok_or_else(|| format!("texture '{s}': expected type[W,H]"))?;
    let dims = dims.strip_suffix(']').ok_or_else(|| format!("texture '{s}': expected ']'"))?;
    let (ety, channels) = match ty.split_once('x') {
        Some((t, n)) => (t, n.parse::<usize>().map_err(|_| format!("texture '{s}': '{n}' channels"))?),
        None => (ty, 1),
    };
    if ![1, 2, 4].contains(&channels) {
        return Err(format!("texture '{s}': 1, 2 or 4 channels"));
    }
    let et = ArgTy::parse(ety).ok_or_else(|| format!("texture '{s}': unknown channel type '{ety}'"))?;
    let mut size = [1usize; 3];
    for (k, d) in dims.split(',').enumerate() {
        if k >= 3 {
            return Err(format!("texture '{s}': at most 3 dimensions"));
        }
        size[k] = d.trim().parse().ok().filter(|&n: &usize| n > 0).ok_or_else(|| format!("texture '{s}': '{d}' is not a size"))?;
    }
    let mut t = Texture {
        name: name.trim().to_string(),
        elem: et.ty,
        signed: et.signed,
        channels,
        size,
        layers: 1,
        data: Vec::new(),
        linear: false,
        normalized_coords: false,
        normalized_read: false,
        address: Address::Clamp,
    };
    for w in words {
        let (k, v) = w.split_once('=').ok_or_else(|| format!("texture '{s}': option '{w}' is not key=value"))?;
        match (k, v) {
            ("filter", "point") => t.linear = false,
            ("filter", "linear") => t.linear = true,
            ("address", "clamp") => t.address = Address::Clamp,
            ("address", "border") => t.address = Address::Border,
            ("address", "wrap") => t.address = Address::Wrap,
            ("address", "mirror") => t.address = Address::Mirror,
            ("coords", "normalized") => t.normalized_coords = true,
            ("coords", "unnormalized") => t.normalized_coords = false,
            ("read", "normalized") => t.normalized_read = true,
            ("read", "element") => t.normalized_read = false,
            ("layers", n) => t.layers = n.parse().ok().filter(|&n: &usize| n > 0).ok_or_else(|| format!("texture '{s}': '{n}' layers"))?,
            _ => return Err(format!("texture '{s}': unknown option '{w}'")),
        }
    }
    let n = size.iter().product::<usize>() * t.layers * channels;
    let spec = ArgSpec { name: t.name.clone(), ty: et, len: Some(n), fields: None, init: init.to_string() };
    t.data = spec.data()?;
    Ok(t)
}

/// A buffer after a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    pub name: String,
    pub ty: ArgTy,
    pub data: Vec<u8>,
}

/// A launch's buffer: name, element type, address.
pub type BufferRef = (String, ArgTy, u64);

/// Allocates the launch's buffers in `global`; returns the kernel arguments' bytes and
/// the buffers' (name, type, address).
pub fn materialize(spec: &LaunchSpec, global: &mut Global) -> Result<(Vec<Vec<u8>>, Vec<BufferRef>), String> {
    let mut args = Vec::new();
    let mut bufs: Vec<BufferRef> = Vec::new();
    // Buffers first (the arguments' in order, then the extra ones), so that a struct's
    // `@name` can point to any of them.
    for a in spec.args.iter().chain(&spec.buffers).filter(|a| a.len.is_some() && a.fields.is_none()) {
        let data = a.data()?;
        let addr = global.alloc(&a.name, data.len(), 256);
        global.buffers.last_mut().expect("allocated").data.copy_from_slice(&data);
        bufs.push((a.name.clone(), a.ty, addr));
    }
    let addr_of = |n: &str| bufs.iter().find(|b| b.0 == n).map(|b| b.2);
    for (i, a) in spec.args.iter().enumerate() {
        if let Some(st) = &a.fields {
            args.push(st.bytes(&a.init, &addr_of).map_err(|e| format!("argument '{}': {e}", a.name))?);
        } else if a.len.is_some() {
            let k = spec.args[..i].iter().filter(|a| a.len.is_some() && a.fields.is_none()).count();
            args.push(bufs[k].2.to_le_bytes().to_vec());
        } else if let Some(r) = a.init.strip_prefix('@') {
            // A texture object (the texture's 1-based index) or a buffer's address.
            let v = match spec.textures.iter().position(|t| t.name == r) {
                Some(i) => i as u64 + 1,
                None => addr_of(r).ok_or_else(|| format!("argument '{}': no texture or buffer named '{r}'", a.name))?,
            };
            let n = a.ty.ty.bytes() as usize;
            args.push(v.to_le_bytes()[..n].to_vec());
        } else {
            let n = a.ty.ty.bytes() as usize;
            args.push(a.ty.value(&a.init)?.to_le_bytes()[..n].to_vec());
        }
    }
    Ok((args, bufs))
}

/// The buffers' contents after a run.
pub fn outputs(global: &Global, bufs: &[BufferRef]) -> Vec<Output> {
    bufs.iter().filter_map(|(n, t, a)| global.buffer(*a).map(|b| Output { name: n.clone(), ty: *t, data: b.data.clone() })).collect()
}

/// FNV-1a over the bytes.
pub fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Element `i` of an output, as text.
pub fn element(o: &Output, i: usize) -> String {
    let s = o.ty.ty.bytes() as usize;
    let bits = crate::memory::read_le(&o.data[i * s..i * s + s]);
    match (o.ty.ty, o.ty.signed) {
        (Ty::F32, _) => format!("{:?}", f32::from_bits(bits as u32)),
        (Ty::F64, _) => format!("{:?}", f64::from_bits(bits)),
        (t, true) => t.sext(bits).to_string(),
        _ => bits.to_string(),
    }
}

/// One line per buffer: type, checksum and the first elements.
pub fn summary(outs: &[Output], first: usize) -> String {
    let mut s = String::new();
    for o in outs {
        let n = o.data.len() / o.ty.ty.bytes() as usize;
        let shown: Vec<String> = (0..n.min(first)).map(|i| element(o, i)).collect();
        s.push_str(&format!(
            "{}: {}[{}] checksum {:016x}  {}{}\n",
            o.name,
            o.ty.name(),
            n,
            checksum(&o.data),
            shown.join(" "),
            if n > first { " ..." } else { "" }
        ));
    }
    s
}

/// Ulp distance between two floats of the same type (NaNs equal each other).
fn ulps(ty: Ty, a: u64, b: u64) -> u64 {
    let key = |v: u64, bits: u32| -> i128 {
        let sign = v >> (bits - 1) & 1;
        let mag = (v & ((1u64 << (bits - 1)) - 1)) as i128;
        if sign == 1 {
            -mag
        } else {
            mag
        }
    };
    let bits = ty.bits();
    (key(a, bits) - key(b, bits)).unsigned_abs() as u64
}

/// Compares two runs' outputs: `Err` names the first differing element of each buffer
/// (integers must be identical; floats within `tol_ulp`, NaN equal to NaN).
pub fn compare(a: &[Output], b: &[Output], tol_ulp: u64) -> Result<u64, String> {
    let mut worst = 0;
    let mut errs = Vec::new();
    for (x, y) in a.iter().zip(b) {
        let s = x.ty.ty.bytes() as usize;
        let n = x.data.len() / s;
        let mut bad = 0usize;
        let mut first = None;
        for i in 0..n {
            let (u, v) = (crate::memory::read_le(&x.data[i * s..i * s + s]), crate::memory::read_le(&y.data[i * s..i * s + s]));
            if u == v {
                continue;
            }
            let ok = x.ty.ty.is_float() && {
                let is_nan = |w: u64| if x.ty.ty == Ty::F32 { f32::from_bits(w as u32).is_nan() } else { f64::from_bits(w).is_nan() };
                if is_nan(u) && is_nan(v) {
                    true
                } else if is_nan(u) || is_nan(v) {
                    false
                } else {
                    let d = ulps(x.ty.ty, u, v);
                    worst = worst.max(d);
                    d <= tol_ulp
                }
            };
            if !ok {
                bad += 1;
                first.get_or_insert(i);
            }
        }
        if let Some(i) = first {
            errs.push(format!("{}: {bad} of {n} elements differ; first at [{i}]: {} vs {}", x.name, element(x, i), element(y, i)));
        }
    }
    if a.len() != b.len() {
        errs.push(format!("{} buffers vs {}", a.len(), b.len()));
    }
    if errs.is_empty() {
        Ok(worst)
    } else {
        Err(errs.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_arguments() {
        let a = ArgSpec::parse("x:f32[4]=[1, 2.5, -3, 0]").unwrap();
        assert_eq!(a.len, Some(4));
        assert_eq!(a.data().unwrap().len(), 16);
        assert!(ArgSpec::parse("n:i32=300000000000").is_err());
        assert!(ArgSpec::parse("n:q32=1").is_err());
        let r = ArgSpec::parse("k:i32[1000]=random:7:-5:5").unwrap().data().unwrap();
        assert!(r.chunks(4).all(|c| (-5..5).contains(&i32::from_le_bytes(c.try_into().unwrap()))));
    }

    #[test]
    fn parses_struct_arguments() {
        // C layout: u8 at 0, f64 at 8, {u8, i32} at 16 (the i32 at 20), i16[2] at 24.
        let a = ArgSpec::parse("p:{u8, f64, {u8, i32}, i16[2]}=[7, 1.5, 3, -2, 10, 11]").unwrap();
        let st = a.fields.clone().unwrap();
        assert_eq!((st.size, st.align), (32, 8));
        let offs: Vec<u64> = st.leaves.iter().map(|l| l.0).collect();
        assert_eq!(offs, [0, 8, 16, 20, 24, 26]);
        let b = st.bytes(&a.init, &|_| None).unwrap();
        assert_eq!(b[0], 7);
        assert_eq!(f64::from_le_bytes(b[8..16].try_into().unwrap()), 1.5);
        assert_eq!(i32::from_le_bytes(b[20..24].try_into().unwrap()), -2);
        assert_eq!(i16::from_le_bytes(b[26..28].try_into().unwrap()), 11);
        assert!(ArgSpec::parse("p:{f32, i32}=[1]").is_err());
        assert!(ArgSpec::parse("p:{f32, q8}=[1, 2]").is_err());
        assert!(ArgSpec::parse("p:{f32 i32}=[1, 2]").is_err());
    }

    #[test]
    fn parses_a_toml_spec() {
        let s = parse_toml("[[launch]]\nkernel = \"k\"\ngrid = [2, 2]\nblock = 64\nargs = [\"n:i32=5\"]\n").unwrap();
        assert_eq!(s[0].grid, [2, 2, 1]);
        assert_eq!(s[0].block, [64, 1, 1]);
        assert!(parse_toml("[[launch]]\nkernel = \"k\"\ngrid = 1\nblock = 1\ntolerance_ulp = 3\n").is_err());
        assert!(parse_toml("[[launch]]\nkernel = \"k\"\ngrid = 1\nblock = 1\nbogus = 1\n").is_err());
    }
}
