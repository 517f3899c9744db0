import { CondenseError } from '../errors/condense-error.js';
import { createCompressor } from './compressor/create-compressor.js';
import type { CompressorOptions } from './compressor/options.js';
import type { ContextEngine } from './context-engine.js';
import { createRuleEngine } from './rules/create-rule-engine.js';
import type { RuleEngineOptions } from './rules/options.js';

/** Options of each built-in engine, by engine name. */
export interface BuiltinEngineOptions {
  readonly compressor: CompressorOptions;
  readonly rules: RuleEngineOptions;
}

/** The name of a built-in engine. */
export type BuiltinEngineName = keyof BuiltinEngineOptions;

export { BUILTIN_ENGINE_NAMES } from './engine-names.js';

/** Makes an engine from its options. */
export type EngineFactory<Options extends object> = (options: Options) => ContextEngine;

/**
 * Engines chosen by name. A registry is immutable: `with` returns a new registry that also knows a
 * third-party engine, so no module-level state is shared between callers.
 */
export interface EngineRegistry<Options extends object> {
  /** Every engine name the registry knows. */
  readonly names: readonly (keyof Options & string)[];
  has(name: string): name is keyof Options & string;
  /** A new engine; throws `INVALID_OPTIONS` for an unknown name (the error lists the known ones). */
  create<Name extends keyof Options & string>(name: Name, options?: Options[Name]): ContextEngine;
  /** A registry that also knows `name`; throws `INVALID_OPTIONS` when the name is taken. */
  with<Name extends string, EngineOptions extends object>(
    name: Name,
    factory: EngineFactory<EngineOptions>,
  ): EngineRegistry<Options & { readonly [key in Name]: EngineOptions }>;
}

/** A registry of the built-in engines (`compressor`, `rules`), to extend with `with`. */
export function createEngineRegistry(): EngineRegistry<BuiltinEngineOptions> {
  return registryOf<BuiltinEngineOptions>(
    new Map<string, EngineFactory<object>>([
      ['compressor', (options) => createCompressor(options as CompressorOptions)],
      ['rules', (options) => createRuleEngine(options as RuleEngineOptions)],
    ]),
  );
}

/** Creates a built-in engine by name: `createEngine('rules', { protectLastN: 3 })`. */
export function createEngine<Name extends BuiltinEngineName>(
  name: Name,
  options?: BuiltinEngineOptions[Name],
): ContextEngine {
  return createEngineRegistry().create(name, options);
}

function registryOf<Options extends object>(
  factories: ReadonlyMap<string, EngineFactory<object>>,
): EngineRegistry<Options> {
  const names = [...factories.keys()] as (keyof Options & string)[];
  return {
    names,
    has: (name): name is keyof Options & string => factories.has(name),
    create(name, options) {
      const factory = factories.get(name);
      if (factory === undefined) {
        throw new CondenseError({
          code: 'INVALID_OPTIONS',
          message: `unknown engine "${name}"`,
          hint: `known engines: ${names.join(', ')}`,
        });
      }
      return factory((options ?? {}) as object);
    },
    with<Name extends string, EngineOptions extends object>(
      name: Name,
      factory: EngineFactory<EngineOptions>,
    ) {
      if (factories.has(name)) {
        throw new CondenseError({
          code: 'INVALID_OPTIONS',
          message: `an engine named "${name}" is already registered`,
          hint: 'register the engine under another name',
        });
      }
      const next = new Map(factories);
      next.set(name, factory as EngineFactory<object>);
      return registryOf<Options & { readonly [key in Name]: EngineOptions }>(next);
    },
  };
}
