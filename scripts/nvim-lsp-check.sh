#!/usr/bin/env bash
# A real LSP client against `cuprite lsp`: Neovim (Debian's package, headless) opens a
# corpus file with an error typed into it, attaches the server, and must receive the
# error's diagnostic at its line; then the error is undone in the buffer (an unsaved
# edit) and the diagnostics must clear. Installs neovim with apt when it is missing.
# Usage: scripts/nvim-lsp-check.sh [path/to/cuprite]   (default: builds target/release/cuprite)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvim >/dev/null; then
  { apt-get update -qq && apt-get install -y -qq neovim; } >/dev/null
fi
cuprite="${1:-}"
if [ -z "$cuprite" ]; then
  cargo build --release -q -p cuprite
  cuprite="$PWD/target/release/cuprite"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The corpus file with a missing ';' on line 5 (1-based) of the kernel.
src=tests/ptx/reduce.cu
line=$(grep -n -m1 'threadIdx.x;' "$src" | cut -d: -f1)
sed "${line}s/threadIdx.x;/threadIdx.x/" "$src" > "$work/reduce.cu"
cat > "$work/check.lua" <<LUA
local out = io.open("$work/result.txt", "w")
local function log(s) out:write(s .. "\n"); out:flush() end
local client = vim.lsp.start_client({
  name = "cuprite",
  cmd = { "$cuprite", "lsp", "--debounce=10" },
  root_dir = "$work",
})
if not client then log("no client"); vim.cmd("qa!") end
vim.cmd("edit $work/reduce.cu")
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client)
local function errors() return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR }) end
local got = vim.wait(60000, function() return #errors() > 0 end, 50)
if not got then log("no diagnostics") else
  for _, d in ipairs(errors()) do log(string.format("error %d: %s", d.lnum + 1, d.message)) end
end
-- Undo the error in the buffer, unsaved: the server sees the edit and clears it.
vim.api.nvim_buf_set_lines(buf, $line - 1, $line, false, { (vim.api.nvim_buf_get_lines(buf, $line - 1, $line, false)[1]) .. ";" })
local cleared = vim.wait(60000, function() return #errors() == 0 end, 50)
log(cleared and "cleared" or "not cleared")
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client) end, 50)
out:close()
vim.cmd("qa!")
LUA
timeout 120 nvim --headless -u NONE -i NONE -c "luafile $work/check.lua" >/dev/null 2>&1 || true
result="$(cat "$work/result.txt" 2>/dev/null || echo 'no result')"
echo "$result"
next=$((line + 1))
if grep -q "^error $next: expected ';'" <<< "$result" && grep -q '^cleared$' <<< "$result"; then
  echo "neovim: diagnostics from cuprite lsp received and cleared"
else
  echo "neovim: expected an error at line $next and then none" >&2
  exit 1
fi
