#!/usr/bin/env bash
# MPFR and GMP headers for the math library's accuracy checker (mathcheck/, through rug with
# gmp-mpfr-sys's use-system-libs: Debian 12's GMP 6.2.1 and MPFR 4.2.0). Installs
# libmpfr-dev and libgmp-dev with apt when they are missing (as root), else says what to run.
set -euo pipefail
if [[ -f /usr/include/mpfr.h ]] && ls /usr/include/*/gmp.h /usr/include/gmp.h >/dev/null 2>&1; then
  exit 0
fi
if [[ $EUID -ne 0 ]]; then
  echo "libmpfr-dev and libgmp-dev are missing: run 'apt-get install -y libmpfr-dev libgmp-dev' as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq libmpfr-dev libgmp-dev >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libmpfr-dev libgmp-dev >/dev/null; }
