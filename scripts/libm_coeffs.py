#!/usr/bin/env python3
"""Polynomial coefficients of cuprite's device math library (frontend/libm/).

Each approximation is a discrete minimax fit (Lawson's iteratively reweighted least squares
over 2000 Chebyshev-distributed points, in 60-digit arithmetic with mpmath) of a function of
the reduced argument; the coefficients are then rounded to the evaluation format. Run it to
reproduce the tables the .cu files carry (their comments name the fit):

    python3 scripts/libm_coeffs.py [name ...]

Needs mpmath (pip install mpmath).
"""
import sys
import mpmath as mp

mp.mp.dps = 60


def lawson(f, a, b, deg, rel, npts=1200, iters=50):
    xs = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (i + 0.5) / npts) for i in range(npts)]
    ys = [f(x) for x in xs]
    pws = [[x**k for k in range(deg + 1)] for x in xs]
    w = [mp.mpf(1) / npts] * npts
    scale = [abs(y) if rel and y != 0 else mp.mpf(1) for y in ys]
    c = None
    for _ in range(iters):
        # weighted least squares: minimize sum w_i (p(x_i) - y_i)^2 / scale_i^2
        A = mp.matrix(deg + 1, deg + 1)
        rhs = mp.matrix(deg + 1, 1)
        for pw, y, wi, s in zip(pws, ys, w, scale):
            ww = wi / (s * s)
            for i in range(deg + 1):
                t = ww * pw[i]
                rhs[i] += t * y
                for j in range(i, deg + 1):
                    A[i, j] += t * pw[j]
        for i in range(deg + 1):
            for j in range(i):
                A[i, j] = A[j, i]
        c = mp.lu_solve(A, rhs)
        errs = [abs(mp.fsum(c[k] * pw[k] for k in range(deg + 1)) - y) / s for pw, y, s in zip(pws, ys, scale)]
        tot = mp.fsum(wi * e for wi, e in zip(w, errs))
        w = [wi * e / tot for wi, e in zip(w, errs)]
    err = max(abs(mp.fsum(c[k] * pw[k] for k in range(deg + 1)) - y) / s for pw, y, s in zip(pws, ys, scale))
    return [c[k] for k in range(deg + 1)], err


def _exp_q(r):  # (e^r - 1 - r) / r^2
    return (mp.exp(r) - 1 - r) / (r * r) if r != 0 else mp.mpf(1) / 2


def _exp2_q(r):  # (2^r - 1) / r
    return (mp.power(2, r) - 1) / r if r != 0 else mp.log(2)


def _exp10_q(r):
    return (mp.power(10, r) - 1) / r if r != 0 else mp.log(10)


def _log_r(z):  # R(z)/z, log1p(f) = f - hfsq + s (hfsq + R), R = sum 2 z^k / (2k+1), k >= 1
    if z == 0:
        return mp.mpf(2) / 3
    s = mp.sqrt(z)
    return (2 * mp.atanh(s) / s - 2) / z


def _sin_s(z):  # (sin(x) - x) / x^3, z = x^2
    if z == 0:
        return -mp.mpf(1) / 6
    x = mp.sqrt(z)
    return (mp.sin(x) - x) / (x * z)


def _cos_c(z):  # (cos(x) - 1 + x^2/2) / x^4
    if z == 0:
        return mp.mpf(1) / 24
    x = mp.sqrt(z)
    return (mp.cos(x) - 1 + z / 2) / (z * z)


def _atan_a(z):  # (atan(x) - x) / x^3
    if z == 0:
        return -mp.mpf(1) / 3
    x = mp.sqrt(z)
    return (mp.atan(x) - x) / (x * z)


def _asin_a(z):  # (asin(x) - x) / x^3
    if z == 0:
        return mp.mpf(1) / 6
    x = mp.sqrt(z)
    return (mp.asin(x) - x) / (x * z)


def _tanh_t(z):  # (tanh(x) - x) / x^3
    if z == 0:
        return -mp.mpf(1) / 3
    x = mp.sqrt(z)
    return (mp.tanh(x) - x) / (x * z)


def _erf_e(z):  # erf(x) / x
    if z == 0:
        return 2 / mp.sqrt(mp.pi)
    x = mp.sqrt(z)
    return mp.erf(x) / x


def _sinpi_s(z):  # sin(pi x) / x
    if z == 0:
        return mp.pi
    x = mp.sqrt(z)
    return mp.sin(mp.pi * x) / x


def _cospi_c(z):  # (cos(pi x) - 1) / x^2
    if z == 0:
        return -mp.pi**2 / 2
    x = mp.sqrt(z)
    return (mp.cos(mp.pi * x) - 1) / z


def _sinpi_t(z):  # (sin(pi x) - pi x) / x^3
    if z == 0:
        return -mp.pi**3 / 6
    x = mp.sqrt(z)
    return (mp.sin(mp.pi * x) - mp.pi * x) / (x * z)


def _sinh_s(z):  # (sinh(x) - x) / x^3
    if z == 0:
        return mp.mpf(1) / 6
    x = mp.sqrt(z)
    return (mp.sinh(x) - x) / (x * z)


def _cosh_c(z):  # (cosh(x) - 1 - x^2/2) / x^4
    if z == 0:
        return mp.mpf(1) / 24
    x = mp.sqrt(z)
    return (mp.cosh(x) - 1 - z / 2) / (z * z)


def _logdd_p(z):  # (2 atanh(s) - 2s - 2s^3/3) / s^5, z = s^2
    if z == 0:
        return mp.mpf(2) / 5
    s = mp.sqrt(z)
    return (2 * mp.atanh(s) - 2 * s - 2 * s**3 / 3) / (s**5)


ERFC_K = 4


def _erfc_g(t):  # (1 + 2x) e^(x^2) erfc(x), x = K (1 + t) / (1 - t) (Shepherd and Laframboise)
    # The factor keeps the function near 1 on the whole interval: without it the values fall
    # to 0.02 at t = 0.75 while the coefficients stay near 0.2, and their rounding to double
    # alone costs 2^-50 relative there.
    x = ERFC_K * (1 + t) / (1 - t)
    return (1 + 2 * x) * mp.exp(x * x) * mp.erfc(x)


LN2 = mp.log(2)
# name: (function, a, b, degree, relative, format)
FITS = {
    "exp_f32": (_exp_q, -LN2 / 2 - 1e-3, LN2 / 2 + 1e-3, 4, True, "f32"),
    "expm1_f32": (_exp_q, -0.7, 0.7, 6, True, "f32"),
    "exp2_f32": (_exp2_q, -0.5, 0.5, 5, True, "f32"),
    "exp10_f32": (_exp10_q, -0.151, 0.151, 5, True, "f32"),
    "log_f32": (_log_r, 0, 0.0295, 2, True, "f32"),
    "sin_f32": (_sin_s, 0, (mp.pi / 4) ** 2 * 1.01, 3, True, "f32"),
    "cos_f32": (_cos_c, 0, (mp.pi / 4) ** 2 * 1.01, 3, True, "f32"),
    "atan_f32": (_atan_a, 0, 1, 8, True, "f32"),
    "asin_f32": (_asin_a, 0, 0.25, 5, True, "f32"),
    "tanh_f32": (_tanh_t, 0, 0.3025, 5, True, "f32"),
    "erf_f32": (_erf_e, 0, 1, 7, True, "f32"),
    "sinpi_f32": (_sinpi_s, 0, 0.0625, 4, True, "f32"),
    "cospi_f32": (_cospi_c, 0, 0.0625, 4, True, "f32"),
    "exp_f64": (_exp_q, -LN2 / 2 - 1e-3, LN2 / 2 + 1e-3, 10, True, "f64"),
    "exp2_f64": (_exp2_q, -0.5, 0.5, 11, True, "f64"),
    "log_f64": (_log_r, 0, 0.0295, 6, True, "f64"),
    "sin_f64": (_sin_s, 0, (mp.pi / 4) ** 2 * 1.01, 6, True, "f64"),
    "cos_f64": (_cos_c, 0, (mp.pi / 4) ** 2 * 1.01, 6, True, "f64"),
    "atan_f64": (_atan_a, 0, 0.1915, 11, True, "f64"),
    "asin_f64": (_asin_a, 0, 0.25, 16, True, "f64"),
    "tanh_f64": (_tanh_t, 0, 0.3025, 11, True, "f64"),
    "erf_f64": (_erf_e, 0, 1, 14, True, "f64"),
    "sinpi_f64": (_sinpi_s, 0, 0.0625, 8, True, "f64"),
    "cospi_f64": (_cospi_c, 0, 0.0625, 8, True, "f64"),
    "sinpi3_f64": (_sinpi_t, 0, 0.0625, 7, True, "f64"),
    "logdd_f64": (_logdd_p, 0, 0.0295, 8, True, "f64"),
    "sinh_f64": (_sinh_s, 0, 1.0, 8, True, "f64"),
    "cosh_f64": (_cosh_c, 0, 1.0, 8, True, "f64"),
    "erfc_f64": (_erfc_g, -1, 0.75, 24, True, "f64"),
    "erfc_f32": (_erfc_g, -1, 0.44, 10, True, "f32"),
}


def fmt(c, f):
    if f == "f32":
        import struct
        v = struct.unpack("f", struct.pack("f", float(c)))[0]
        return repr(v) + "f"
    return repr(float(c))


def split(v, bits):
    """v as hi + lo with hi rounded to `bits` significant bits (so that small multiples of
    hi are exact) and lo the double nearest v - hi."""
    e = mp.floor(mp.log(abs(v), 2))
    q = mp.mpf(2) ** (e - bits + 1)
    hi = mp.nint(v / q) * q
    return float(hi), float(v - hi)


def consts():
    """The double-precision constants of frontend/libm/*_f64.cu."""
    named = {
        "LN2 (32-bit hi)": split(mp.log(2), 32),
        "LN2 (53-bit hi)": split(mp.log(2), 53),
        "LOG2E": split(1 / mp.log(2), 53),
        "LOG10_2 (32-bit hi)": split(mp.log10(2), 32),
        "LN10": split(mp.log(10), 53),
        "LOG10E": split(1 / mp.log(10), 53),
        "PIO2 (3 x 53)": None,
        "PIO2": split(mp.pi / 2, 53),
        "PI": split(mp.pi, 53),
        "PIO4": split(mp.pi / 4, 53),
        "3PIO4": split(3 * mp.pi / 4, 53),
        "ATAN_0.5": split(mp.atan(0.5), 53),
        "ATAN_1.5": split(mp.atan(1.5), 53),
        "2OPI": split(2 / mp.pi, 53),
    }
    for k, v in named.items():
        if v is None:
            p1 = float(mp.pi / 2)
            p2 = float(mp.pi / 2 - p1)
            p3 = float(mp.pi / 2 - p1 - p2)
            print(f"{k}: {p1!r}, {p2!r}, {p3!r}")
        else:
            print(f"{k}: {v[0]!r}, {v[1]!r}")
    old = mp.mp.dps
    mp.mp.dps = 420
    f = 2 / mp.pi
    words = []
    for _ in range(19):
        f *= mp.mpf(2) ** 64
        w = int(mp.floor(f))
        f -= w
        words.append(w)
    mp.mp.dps = old
    print("2/pi in 64-bit words:")
    for j, w in enumerate(words):
        print(f"    case {j + 1}: return 0x{w:016X}ull;")


def main(names):
    if names == ["consts"]:
        return consts()
    for name in names or FITS:
        f, a, b, deg, rel, form = FITS[name]
        c, err = lawson(f, mp.mpf(a), mp.mpf(b), deg, rel)
        print(f"// {name}: degree {deg} on [{mp.nstr(a, 6)}, {mp.nstr(b, 6)}], max {'relative' if rel else 'absolute'} error {mp.nstr(err, 3)}")
        print("  " + ", ".join(fmt(x, form) for x in c))


if __name__ == "__main__":
    main(sys.argv[1:])
