import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The text of a fixture in `test/fixtures/convert/` (see `test/fixtures/SOURCES.md`). */
export function convertFixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../fixtures/convert/${name}`, import.meta.url)), 'utf8');
}

/** The path of a fixture in `test/fixtures/convert/`. */
export function convertFixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/convert/${name}`, import.meta.url));
}
