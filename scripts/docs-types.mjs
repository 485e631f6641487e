// Writes the JavaScript and TypeScript examples of the docs (the ```js and
// ```ts blocks of docs/js-module.md and docs/embedding.md) into a folder, one
// module per block, for `tsc --strict` to check them against the package's
// declarations: test_pack in build.sh runs it in the temporary project
// where the packed tarball is installed, so an example a TypeScript user
// copies type-checks (issue 32: report.decode.tokens_per_s failed TS18048).
//
//   node scripts/docs-types.mjs OUTDIR
//
// Each block becomes OUTDIR/<doc>-L<line>.js or .ts (<line>: the block's
// opening fence), checked as written, with three additions where the block
// relies on its page's prose: an import of load from the package where it
// calls load() without importing it; `const calc = await load();` where it
// uses calc without declaring it; `import '@modelrefs/throughput/widget';`
// where it queries the element (the page loads widget.js, which registers
// the tag). An import of a hosted throughput.js (https://.../throughput.js)
// is read as the package, whose file it is. A .wasm import is typed as
// Cloudflare Workers type it (a WebAssembly.Module): OUTDIR/wasm-module.d.ts.
// Prints the files it wrote.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const DOCS = ['docs/js-module.md', 'docs/embedding.md'];
const PKG = '@modelrefs/throughput';

const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/docs-types.mjs OUTDIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

writeFileSync(
  join(out, 'wasm-module.d.ts'),
  "// As @cloudflare/workers-types declares it: wrangler imports a .wasm as a compiled module.\n" +
    "declare module '*.wasm' {\n  const module: WebAssembly.Module;\n  export default module;\n}\n",
);

const root = new URL('..', import.meta.url);
let n = 0;
for (const doc of DOCS) {
  const text = readFileSync(new URL(doc, root), 'utf8');
  for (const m of text.matchAll(/^```(js|ts)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, m.index).split('\n').length;
    let code = m[2].replace(/(from\s+|import\s+)(['"])https?:\/\/[^'"]*\/throughput\.js\2/g, `$1'${PKG}'`);
    const prelude = [];
    const importsLoad = /import\s*\{[^}]*\bload\b[^}]*\}\s*from/.test(code);
    const declaresCalc = /\b(const|let|var)\s+calc\b/.test(code);
    if (!importsLoad && (/\bload\(/.test(code) || (/\bcalc\b/.test(code) && !declaresCalc))) {
      prelude.push(`import { load } from '${PKG}';`);
    }
    if (/\bcalc\b/.test(code) && !declaresCalc) prelude.push('const calc = await load();');
    if (/querySelector\(\s*'throughput-calculator'/.test(code)) prelude.push(`import '${PKG}/widget';`);
    code = [...prelude, code].join('\n');
    if (!/^\s*(import|export)\b/m.test(code)) code += '\nexport {};\n';
    const file = join(out, `${basename(doc, '.md')}-L${line}.${m[1]}`);
    writeFileSync(file, code);
    console.log(file);
    n++;
  }
}
if (n === 0) {
  console.error('docs-types: no ```js or ```ts block found');
  process.exit(1);
}
