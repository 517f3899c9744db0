import type { BuiltinEngineName } from './registry.js';

/** The built-in engine names, in the order help texts list them (apart from the registry, which loads them). */
export const BUILTIN_ENGINE_NAMES: readonly BuiltinEngineName[] = ['compressor', 'rules'];
