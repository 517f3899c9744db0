import fc from 'fast-check';

// Property tests run with a fixed seed so CI is reproducible; `PROPERTY_SEED=random` explores new inputs and
// `PROPERTY_SEED=<n>` replays a reported failure.
const seed = process.env['PROPERTY_SEED'];
if (seed !== 'random') fc.configureGlobal({ seed: seed === undefined ? 20_261_122 : Number(seed) });
