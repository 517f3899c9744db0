/**
 * The nearest record still written above a parent link: the parent itself when it is written, else the first
 * written record found by following the links of the records that were dropped (`gone`: uuid → its parent),
 * else undefined (the chain leaves the file, or loops). `written` may grow between questions (a new message's
 * record is written as relinking goes on); answers follow it.
 *
 * Each record a walk passes remembers what the walk found, so a chain of thousands of dropped records under one
 * kept record is walked once, not once per record hanging from it (walking it afresh each time was quadratic:
 * 140 s for 40,000 progress records under one response that lost all its blocks but the first).
 */
export function writtenAncestor(
  gone: ReadonlyMap<string, string | null | undefined>,
  written: ReadonlySet<string>,
): (parent: string | null | undefined) => string | undefined {
  const found = new Map<string, string | undefined>();
  // Answers hold while `written` keeps its size (it only grows); they are dropped when it changes.
  let foundWith = written.size;
  return (parent) => {
    if (foundWith !== written.size) {
      found.clear();
      foundWith = written.size;
    }
    const passed: string[] = [];
    let current = parent;
    let answer: string | undefined;
    for (let steps = 0; typeof current === 'string'; steps++) {
      if (written.has(current)) {
        answer = current;
        break;
      }
      if (found.has(current)) {
        answer = found.get(current);
        break;
      }
      // A chain longer than the dropped records loops: it leads nowhere.
      if (steps > gone.size) break;
      passed.push(current);
      current = gone.get(current);
    }
    for (const uuid of passed) found.set(uuid, answer);
    return answer;
  };
}
