// Bundles the `condense` binary into dist/cli-bundle/ (run by `npm run build` and `npm run build:js`).
//
// Node resolves, reads and compiles every ES module on its own: a command such as `compact` loaded about 350 of
// condense's modules plus about 180 of zod's and yaml's, which took more time than compacting a small transcript.
// The bundle keeps commands lazy (each command is its own chunk, loaded when it runs) but loads each in a few
// files. Dependencies that only some runs need (models, the queue, Parquet, exact tokenizers, the progress bar)
// stay external and load from node_modules as before; the library entry points (dist/index.js…) are not bundled.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

// What nearly every command loads goes into the bundle. Every other dependency (and any added later) stays
// external, loading from node_modules only in the runs that need it.
const BUNDLED = new Set(['zod', 'yaml', 'commander']);
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const EXTERNAL = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// Chunk names change with their content: without this, chunks of earlier builds would pile up beside the new ones.
rmSync('dist/cli-bundle', { recursive: true, force: true });

await build({
  // Worker threads load these by URL beside the chunk that starts them, so every entry sits flat in the folder.
  entryPoints: {
    main: 'src/cli/main.ts',
    'trajectory-worker': 'src/batch/trajectory-worker.ts',
    'compaction-worker': 'src/integrations/proxy/compaction-worker.ts',
    'proxy-engine': 'src/cli/proxy-engine.ts',
  },
  outdir: 'dist/cli-bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: EXTERNAL,
  define: { __CONDENSE_CLI_BUNDLE__: 'true' },
  // Bundled CommonJS dependencies (commander) call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __condenseRequire } from 'node:module'; const require = __condenseRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
