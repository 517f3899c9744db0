import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChunksToTarget, writeFileAtomic } from '../../src/io/atomic-write.js';
import { openOrderedJsonlWriter } from '../../src/io/ordered-jsonl-writer.js';
import { assertNotAnInput, resolveOutputTarget } from '../../src/io/output-target.js';
import { removeStaleTemporaries, temporaryPathFor } from '../../src/io/temp-files.js';
import { temporaryDirectory } from '../support/cli.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());
let count = 0;
function fresh(): string {
  const dir = join(tmp.path, `d${count++}`);
  mkdirSync(dir);
  return dir;
}

function readAll(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    createReadStream(path, 'utf8')
      .on('data', (chunk) => (text += chunk))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}

describe('resolveOutputTarget', () => {
  it('follows chains of links to the file they end at, existing or not', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'real.json'), 'x');
    symlinkSync('real.json', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    symlinkSync('sub/new.json', join(dir, 'dangling'));
    mkdirSync(join(dir, 'sub'));
    expect(await resolveOutputTarget(join(dir, 'b'))).toMatchObject({
      kind: 'file',
      path: join(dir, 'real.json'),
    });
    expect(await resolveOutputTarget(join(dir, 'dangling'))).toMatchObject({
      kind: 'file',
      path: join(dir, 'sub', 'new.json'),
      existing: undefined,
    });
  });

  it('refuses directories, sockets and looping links; a missing directory is IO_FAILED', async () => {
    const dir = fresh();
    symlinkSync('loop2', join(dir, 'loop1'));
    symlinkSync('loop1', join(dir, 'loop2'));
    const socket = join(dir, 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      await expect(resolveOutputTarget(dir)).rejects.toMatchObject({ code: 'OUTPUT_REFUSED' });
      await expect(resolveOutputTarget(socket)).rejects.toThrow(/it is a socket/);
      await expect(resolveOutputTarget(join(dir, 'loop1'))).rejects.toThrow(/links loop/);
      await expect(resolveOutputTarget(join(dir, 'no', 'such', 'out.json'))).rejects.toMatchObject({
        code: 'IO_FAILED',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('assertNotAnInput catches the input under another name: a link, a parent link, a hard link', async () => {
    const dir = fresh();
    const input = join(dir, 'in.json');
    writeFileSync(input, 'x');
    symlinkSync('.', join(dir, 'here'));
    linkSync(input, join(dir, 'hard.json'));
    for (const out of [join(dir, 'here', 'in.json'), join(dir, 'hard.json')]) {
      await expect(assertNotAnInput(await resolveOutputTarget(out), [input])).rejects.toMatchObject({
        code: 'OUTPUT_REFUSED',
      });
    }
    await expect(
      assertNotAnInput(await resolveOutputTarget(join(dir, 'other.json')), [input]),
    ).resolves.toBeUndefined();
  });
});

describe('writeFileAtomic and the ordered writer', () => {
  it('replace the file behind a link, keep its mode, and leave no temporary file', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'real.json'), 'old');
    chmodSync(join(dir, 'real.json'), 0o640);
    symlinkSync('real.json', join(dir, 'link.json'));
    await writeFileAtomic(join(dir, 'link.json'), 'new');
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toBe('new');
    expect(statSync(join(dir, 'real.json')).mode & 0o777).toBe(0o640);
    const writer = await openOrderedJsonlWriter(join(dir, 'link.json'), 2);
    await writer.put(1, 'b');
    await writer.put(0, 'a');
    await writer.finish();
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toBe('a\nb\n');
    expect(statSync(join(dir, 'real.json')).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('write chunks in order while the next is made, and leave the file as it was when making one fails', async () => {
    const dir = fresh();
    const file = join(dir, 'out.txt');
    writeFileSync(file, 'before');
    const target = await resolveOutputTarget(file);
    const chunks = Array.from({ length: 200 }, (_, index) => `${index} ${'x'.repeat(index * 97)}\n`);
    await writeChunksToTarget(target, chunks);
    expect(readFileSync(file, 'utf8')).toBe(chunks.join(''));
    function* failing(): Generator<string> {
      yield 'first chunk, being written';
      throw new Error('cannot make the second chunk');
    }
    await expect(writeChunksToTarget(await resolveOutputTarget(file), failing())).rejects.toThrow(
      /second chunk/,
    );
    expect(readFileSync(file, 'utf8')).toBe(chunks.join(''));
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });

  it('write through a FIFO, line by line for the ordered writer, and never replace it', async () => {
    const dir = fresh();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const whole = readAll(fifo);
    await writeFileAtomic(fifo, 'whole\n');
    expect(await whole).toBe('whole\n');
    const lines = readAll(fifo);
    const writer = await openOrderedJsonlWriter(fifo, 2);
    await writer.put(1, 'second');
    await writer.put(0, 'first');
    await writer.finish();
    expect(await lines).toBe('first\nsecond\n');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});

describe('temporary files', () => {
  it('sweeps only stale files of our own naming for the same target, never its own live ones', async () => {
    const dir = fresh();
    const target = join(dir, 'out.jsonl');
    const live = temporaryPathFor(target);
    writeFileSync(live, '');
    const dead = live.replace(`-${process.pid}-`, '-999999999-');
    writeFileSync(dead, '');
    symlinkSync(target, dead.replace('999999999', '999999998'));
    const removed = await removeStaleTemporaries(target, { force: true });
    expect(removed).toEqual([dead]);
    expect(readdirSync(dir).sort()).toEqual(
      [live, dead.replace('999999999', '999999998')].map((path) => path.slice(dir.length + 1)).sort(),
    );
  });
});
