import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the small committed fixtures live (see `test/fixtures/SOURCES.md`). */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Absolute paths of the fixture files in a sub-folder, sorted. */
export function fixtureFiles(dir: string): string[] {
  return readdirSync(join(FIXTURES_DIR, dir))
    .sort()
    .map((name) => join(FIXTURES_DIR, dir, name));
}

/** The text of a fixture, by path relative to the fixtures folder. */
export function readFixture(path: string): string {
  return readFileSync(join(FIXTURES_DIR, path), 'utf8');
}
