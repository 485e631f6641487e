// Lists the code size of a Go .wasm by package, from its name section:
//   GOOS=js GOARCH=wasm go build -o /tmp/t.wasm ./wasm/js/light   (no -s -w)
//   node scripts/wasm-symbols.mjs /tmp/t.wasm [top]        # by package
//   node scripts/wasm-symbols.mjs /tmp/t.wasm [top] func   # the largest functions
// Sizes are function bodies in bytes (uncompressed); data segments are
// listed as one line.
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.argv[2]);
const top = Number(process.argv[3] || 25);
const mode = process.argv[4] || 'pkg';
let pos = 8;
const u32 = () => {
  let result = 0, shift = 0, b;
  do { b = bytes[pos++]; result |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
  return result >>> 0;
};
let importedFuncs = 0;
const bodies = [];
const names = new Map();
let dataBytes = 0;
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = u32();
  const end = pos + size;
  if (id === 2) { // imports
    for (let n = u32(); n > 0; n--) {
      for (let k = 0; k < 2; k++) { const l = u32(); pos += l; }
      const kind = bytes[pos++];
      if (kind === 0) { u32(); importedFuncs++; }
      else if (kind === 1) { pos++; const f = bytes[pos++]; u32(); if (f & 1) u32(); }
      else if (kind === 2) { const f = bytes[pos++]; u32(); if (f & 1) u32(); }
      else if (kind === 3) { pos += 2; }
    }
  } else if (id === 10) { // code
    for (let n = u32(); n > 0; n--) { const l = u32(); bodies.push(l); pos += l; }
  } else if (id === 11) {
    dataBytes = size;
  } else if (id === 0) {
    const l = u32();
    const name = bytes.subarray(pos, pos + l).toString();
    pos += l;
    if (name === 'name') {
      while (pos < end) {
        const sub = bytes[pos++];
        const subSize = u32();
        const subEnd = pos + subSize;
        if (sub === 1) {
          for (let n = u32(); n > 0; n--) {
            const idx = u32(); const nl = u32();
            names.set(idx, bytes.subarray(pos, pos + nl).toString()); pos += nl;
          }
        }
        pos = subEnd;
      }
    }
  }
  pos = end;
}
if (mode === 'func') {
  const rows = bodies.map((size, i) => [size, names.get(i + importedFuncs) || '?']);
  rows.sort((a, b) => b[0] - a[0]);
  for (const [size, name] of rows.slice(0, top)) console.log(String(size).padStart(9), name);
  process.exit(0);
}
const byPkg = new Map();
let total = 0;
bodies.forEach((size, i) => {
  const name = names.get(i + importedFuncs) || '?';
  // Go writes "github.com/x/y.F" as "github.com_x_y.F": the package is
  // what precedes the first '.' after the host name.
  const host = /^[a-z0-9-]+\.[a-z]+_/.exec(name);
  const dot = name.indexOf('.', host ? host[0].length : 0);
  const pkg = dot > 0 ? name.slice(0, dot) : name;
  byPkg.set(pkg, (byPkg.get(pkg) || 0) + size);
  total += size;
});
console.log(`code ${total} bytes in ${bodies.length} functions; data ${dataBytes} bytes`);
for (const [pkg, size] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(String(size).padStart(9), pkg);
}
