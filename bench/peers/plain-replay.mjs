// The naive replay `bench/replay.bench.ts` compares `condense replay` with: read the whole file, parse every line,
// index the records by uuid, take the newest message as the leaf, walk its parent chain and print each message.
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2], 'utf8');
const byId = new Map();
let leaf;
for (const line of text.split('\n')) {
  if (line.trim() === '') continue;
  let record;
  try {
    record = JSON.parse(line);
  } catch {
    continue;
  }
  if (typeof record.uuid !== 'string') continue;
  byId.set(record.uuid, record);
  if (record.type === 'user' || record.type === 'assistant') leaf = record;
}
const chain = [];
for (let at = leaf; at !== undefined; at = at.parentUuid ? byId.get(at.parentUuid) : undefined)
  chain.push(at);
let out = '';
for (const record of chain.reverse()) {
  const content = record.message?.content;
  out += `${record.type}: ${typeof content === 'string' ? content : JSON.stringify(content)}\n`;
}
process.stdout.write(out);
