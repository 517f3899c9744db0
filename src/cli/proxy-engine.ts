import type { ContextEngine } from '../engines/context-engine.js';
import type { RuleEngineOptions } from '../engines/rules/options.js';
import type { CliContext } from './context.js';
import type { EngineFlags } from './engine-flags.js';
import { engineFor, loadEngineSetup } from './engine-setup.js';
import { ALL_KEY_VARIABLES } from './model-keys.js';

/** What a proxy worker thread needs to make the engines the command line asked for: plain data only. */
export interface ProxyEngineRecipe {
  readonly flags: EngineFlags;
  readonly ruleOptions: RuleEngineOptions;
  /** The API key variables the model flags read (`OPENAI_API_KEY`…), nothing else of the environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** The recipe for `condense proxy`'s flags, handed to its compaction workers. */
export function proxyEngineRecipe(
  context: CliContext,
  flags: EngineFlags,
  ruleOptions: RuleEngineOptions,
): ProxyEngineRecipe {
  const env: Record<string, string> = {};
  for (const name of ALL_KEY_VARIABLES) {
    const value = context.env[name];
    if (value !== undefined) env[name] = value;
  }
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) plain[key] = value;
  return { flags: plain as unknown as EngineFlags, ruleOptions, env };
}

/**
 * The engine factory of a recipe, run inside a compaction worker: the same engines as `engineFor`, with model keys
 * from the recipe (the only part of the command-line context engines use).
 */
export async function proxyEngineFactory(recipe: ProxyEngineRecipe): Promise<() => ContextEngine> {
  const context = { env: recipe.env } as Pick<CliContext, 'env'> as CliContext;
  const setup = await loadEngineSetup(context, recipe.flags, recipe.ruleOptions);
  return () => engineFor(context, recipe.flags, setup);
}

// Defined (true) only in the CLI bundle (scripts/bundle-cli.mjs), where this code sits in a shared chunk and the
// module a worker can import by name is the bundle's own `proxy-engine.js` entry beside it.
declare const __CONDENSE_CLI_BUNDLE__: boolean | undefined;

/** This module's URL for worker threads, which run built JavaScript only (the `dist/` copy when run from sources). */
export function proxyEngineModuleUrl(): string {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('../../dist/cli/proxy-engine.js', here).href;
  return typeof __CONDENSE_CLI_BUNDLE__ !== 'undefined' && __CONDENSE_CLI_BUNDLE__
    ? new URL('./proxy-engine.js', here).href
    : here;
}
