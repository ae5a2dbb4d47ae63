//! The device runtime's `vprintf(format, args)`: C's printf conversions over the argument
//! buffer device code packs (each argument at an offset aligned to its size: `int`-sized
//! conversions read 4 bytes, `l`/`ll`/`z`/`j`/`t` integers, `double`s, `%s` and `%p` read 8),
//! as the CUDA runtime formats them. The simulator collects what each thread prints, in
//! the order the threads execute (deterministic for a schedule).

/// Formats `fmt` reading arguments with `arg(offset, bytes)` and strings with `string(ptr)`.
/// Returns the text and the number of arguments read.
pub fn format(
    fmt: &[u8],
    mut arg: impl FnMut(u64, u64) -> Result<u64, String>,
    mut string: impl FnMut(u64) -> Result<Vec<u8>, String>,
) -> Result<(String, u32), String> {
    let mut out: Vec<u8> = Vec::new();
    let mut off = 0u64;
    let mut nargs = 0u32;
    let mut next = |size: u64, off: &mut u64| -> Result<u64, String> {
        *off = off.div_ceil(size) * size;
        let v = arg(*off, size)?;
        *off += size;
        Ok(v)
    };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        // %[flags][width][.precision][length]conversion
        let mut flags = String::new();
        while let Some(&f) = fmt.get(i).filter(|f| b"-+ #0".contains(f)) {
            flags.push(f as char);
            i += 1;
        }
        let mut width: Option<usize> = None;
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = next(4, &mut off)? as u32 as i32;
            nargs += 1;
            if w < 0 {
                flags.push('-');
            }
            width = Some(w.unsigned_abs() as usize);
        } else {
            while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                width = Some(width.unwrap_or(0) * 10 + (d - b'0') as usize);
                i += 1;
            }
        }
        let mut prec: Option<usize> = None;
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let p = next(4, &mut off)? as u32 as i32;
                nargs += 1;
                prec = (p >= 0).then_some(p as usize);
            } else {
                let mut p = 0;
                while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                    p = p * 10 + (d - b'0') as usize;
                    i += 1;
                }
                prec = Some(p);
            }
        }
        let mut long = false;
        let mut short = 0;
        while let Some(&l) = fmt.get(i).filter(|l| b"hlLqjzt".contains(l)) {
            match l {
                b'h' => short += 1,
                _ => long = true,
            }
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else { break };
        i += 1;
        let left = flags.contains('-');
        let zero = flags.contains('0') && !left;
        let plus = flags.contains('+');
        let space = flags.contains(' ');
        let alt = flags.contains('#');
        let body: String = match conv {
            b'd' | b'i' => {
                let v = next(if long { 8 } else { 4 }, &mut off)?;
                let v: i64 = match (long, short) {
                    (true, _) => v as i64,
                    (false, 1) => v as u32 as i32 as i16 as i64,
                    (false, s) if s >= 2 => v as u32 as i32 as i8 as i64,
                    _ => v as u32 as i32 as i64,
                };
                let mut digits = v.unsigned_abs().to_string();
                if let Some(p) = prec {
                    if p == 0 && v == 0 {
                        digits.clear();
                    }
                    while digits.len() < p {
                        digits.insert(0, '0');
                    }
                }
                let sign = if v < 0 {
                    "-"
                } else if plus {
                    "+"
                } else if space {
                    " "
                } else {
                    ""
                };
                pad_number(sign, "", &digits, width, left, zero && prec.is_none())
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = next(if long { 8 } else { 4 }, &mut off)?;
                let v: u64 = match (long, short) {
                    (true, _) => v,
                    (false, 1) => v as u16 as u64,
                    (false, s) if s >= 2 => v as u8 as u64,
                    _ => v as u32 as u64,
                };
                let mut digits = match conv {
                    b'u' => v.to_string(),
                    b'x' => format!("{v:x}"),
                    b'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                if let Some(p) = prec {
                    if p == 0 && v == 0 {
                        digits.clear();
                    }
                    while digits.len() < p {
                        digits.insert(0, '0');
                    }
                }
                let prefix = match conv {
                    b'x' if alt && v != 0 => "0x",
                    b'X' if alt && v != 0 => "0X",
                    b'o' if alt && !digits.starts_with('0') => "0",
                    _ => "",
                };
                pad_number("", prefix, &digits, width, left, zero && prec.is_none())
            }
            b'c' => {
                let v = next(4, &mut off)? as u8;
                pad(&String::from_utf8_lossy(&[v]), width, left)
            }
            b's' => {
                let p = next(8, &mut off)?;
                let mut s = if p == 0 { b"(null)".to_vec() } else { string(p)? };
                if let Some(pr) = prec {
                    s.truncate(pr);
                }
                pad(&String::from_utf8_lossy(&s), width, left)
            }
            b'p' => {
                let p = next(8, &mut off)?;
                pad(&format!("0x{p:x}"), width, left)
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let v = f64::from_bits(next(8, &mut off)?);
                let s = format_float(v, conv, prec, alt);
                let (sign, digits) = match s.strip_prefix('-') {
                    Some(d) => ("-", d.to_string()),
                    None if plus => ("+", s),
                    None if space => (" ", s),
                    None => ("", s),
                };
                pad_number(sign, "", &digits, width, left, zero && v.is_finite())
            }
            b'n' => {
                // Writes nothing back (the device runtime does not support %n either).
                String::new()
            }
            other => {
                // Unknown conversion: printed as written.
                format!("%{}", other as char)
            }
        };
        if conv != b'n' && conv != b'%' {
            nargs += 1;
        }
        out.extend_from_slice(body.as_bytes());
    }
    Ok((String::from_utf8_lossy(&out).into_owned(), nargs))
}

fn pad(s: &str, width: Option<usize>, left: bool) -> String {
    let w = width.unwrap_or(0);
    let n = s.chars().count();
    if n >= w {
        s.to_string()
    } else if left {
        format!("{s}{}", " ".repeat(w - n))
    } else {
        format!("{}{s}", " ".repeat(w - n))
    }
}

fn pad_number(sign: &str, prefix: &str, digits: &str, width: Option<usize>, left: bool, zero: bool) -> String {
    let w = width.unwrap_or(0);
    let n = sign.len() + prefix.len() + digits.len();
    if n >= w {
        format!("{sign}{prefix}{digits}")
    } else if left {
        format!("{sign}{prefix}{digits}{}", " ".repeat(w - n))
    } else if zero {
        format!("{sign}{prefix}{}{digits}", "0".repeat(w - n))
    } else {
        format!("{}{sign}{prefix}{digits}", " ".repeat(w - n))
    }
}

/// `%f`, `%e`, `%g` and `%a` of `v` as C prints them.
fn format_float(v: f64, conv: u8, prec: Option<usize>, alt: bool) -> String {
    let upper = conv.is_ascii_uppercase();
    let s = if v.is_nan() {
        if v.is_sign_negative() {
            "-nan".to_string()
        } else {
            "nan".to_string()
        }
    } else if v.is_infinite() {
        if v < 0.0 {
            "-inf".to_string()
        } else {
            "inf".to_string()
        }
    } else {
        match conv.to_ascii_lowercase() {
            b'f' => format!("{v:.*}", prec.unwrap_or(6)),
            b'e' => exp_form(v, prec.unwrap_or(6)),
            b'a' => hex_float(v),
            _ => {
                // %g: %e if the exponent is < -4 or >= the precision, else %f; trailing
                // zeros removed unless '#'.
                let p = match prec.unwrap_or(6) {
                    0 => 1,
                    p => p,
                };
                let e = exp_form(v, p - 1);
                let x: i32 = e.rsplit_once('e').and_then(|(_, x)| x.parse().ok()).unwrap_or(0);
                let s = if x < -4 || x >= p as i32 { e } else { format!("{v:.*}", (p as i32 - 1 - x).max(0) as usize) };
                if alt {
                    s
                } else {
                    strip_zeros(&s)
                }
            }
        }
    };
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

/// `d.ddde+XX` with `p` digits after the point.
fn exp_form(v: f64, p: usize) -> String {
    let s = format!("{v:.p$e}");
    let (m, x) = s.split_once('e').unwrap_or((&s, "0"));
    let x: i32 = x.parse().unwrap_or(0);
    format!("{m}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
}

fn strip_zeros(s: &str) -> String {
    let (m, x) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
    format!("{m}{x}")
}

fn hex_float(v: f64) -> String {
    let bits = v.to_bits();
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v == 0.0 {
        return format!("{sign}0x0p+0");
    }
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1 << 52) - 1);
    let (lead, e) = if exp == 0 { (0, -1022) } else { (1, exp - 1023) };
    let mut m = format!("{mant:013x}");
    while m.ends_with('0') {
        m.pop();
    }
    let dot = if m.is_empty() { String::new() } else { format!(".{m}") };
    format!("{sign}0x{lead}{dot}p{}{}", if e < 0 { '-' } else { '+' }, e.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fmt: &str, args: &[(u64, u64)]) -> String {
        let mut buf = [0u8; 64];
        let mut off = 0u64;
        for &(size, v) in args {
            off = off.div_ceil(size) * size;
            buf[off as usize..(off + size) as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
            off += size;
        }
        let arg = |o: u64, n: u64| {
            let mut b = [0u8; 8];
            b[..n as usize].copy_from_slice(&buf[o as usize..(o + n) as usize]);
            Ok(u64::from_le_bytes(b))
        };
        format(fmt.as_bytes(), arg, |_| Ok(b"str".to_vec())).unwrap().0
    }

    #[test]
    fn conversions_match_c() {
        assert_eq!(
            run("%d %i|%5d|%-5d|%05d|%+d", &[(4, (-7i32) as u32 as u64), (4, 3), (4, 42), (4, 42), (4, 42), (4, 9)]),
            "-7 3|   42|42   |00042|+9"
        );
        assert_eq!(
            run("%u %x %X %#x %o %lu %lld", &[(4, 4_000_000_000), (4, 255), (4, 255), (4, 255), (4, 8), (8, 1 << 40), (8, (-2i64) as u64)]),
            "4000000000 ff FF 0xff 10 1099511627776 -2"
        );
        assert_eq!(
            run(
                "%f %.2f %e %g %g %g",
                &[
                    (8, 1.5f64.to_bits()),
                    (8, 2.71523f64.to_bits()),
                    (8, 12345.678f64.to_bits()),
                    (8, 0.0001f64.to_bits()),
                    (8, 1e20f64.to_bits()),
                    (8, 100.0f64.to_bits())
                ]
            ),
            "1.500000 2.72 1.234568e+04 0.0001 1e+20 100"
        );
        assert_eq!(
            run("%c%c %s %8.3f|%-6s|%%", &[(4, 72), (4, 105), (8, 0x1000), (8, 2.5f64.to_bits()), (8, 0x1000)]),
            "Hi str    2.500|str   |%"
        );
        assert_eq!(run("%p %a", &[(8, 0x7f00), (8, 1.0f64.to_bits())]), "0x7f00 0x1p+0");
    }
}
