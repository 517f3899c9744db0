/**
 * An independent check of an Anthropic Messages request body, written from the API rules rather than from the
 * codec: `system` outside `messages`, first message from the user, strict alternation, non-empty content,
 * `tool_result` blocks first in their user message and answering exactly the `tool_use` blocks of the assistant
 * message right before, `input` always an object. Returns one line per problem.
 */
export function anthropicWireProblems(body: unknown): string[] {
  const problems: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['body is not an object'];
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return ['messages is not an array'];
  let previousCalls: string[] = [];
  messages.forEach((message: { role?: unknown; content?: unknown }, index) => {
    const role = message.role;
    if (role !== 'user' && role !== 'assistant') problems.push(`${index}: role ${String(role)}`);
    if (index === 0 && role !== 'user') problems.push('first message is not from the user');
    if (index > 0 && messages[index - 1]?.role === role)
      problems.push(`${index}: two ${String(role)} messages`);
    const blocks: { type?: string; [key: string]: unknown }[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : ((message.content as never) ?? []);
    if (!Array.isArray(blocks) || blocks.length === 0) problems.push(`${index}: empty content`);
    const results = blocks
      .filter((block) => block.type === 'tool_result')
      .map((block) => String(block['tool_use_id']));
    const firstOther = blocks.findIndex((block) => block.type !== 'tool_result');
    if (firstOther !== -1 && blocks.slice(firstOther).some((block) => block.type === 'tool_result')) {
      problems.push(`${index}: tool_result after other blocks`);
    }
    for (const block of blocks) {
      if (block.type === 'text' && block['text'] === '') problems.push(`${index}: empty text block`);
      if (
        block.type === 'tool_use' &&
        (typeof block['input'] !== 'object' || block['input'] === null || Array.isArray(block['input']))
      ) {
        problems.push(`${index}: tool_use input is not an object`);
      }
    }
    if (role === 'user') {
      for (const id of results)
        if (!previousCalls.includes(id))
          problems.push(`${index}: tool_result ${id} answers no call before it`);
      for (const id of previousCalls)
        if (!results.includes(id)) problems.push(`${index}: tool_use ${id} unanswered`);
    }
    previousCalls =
      role === 'assistant'
        ? blocks.filter((block) => block.type === 'tool_use').map((block) => String(block['id']))
        : [];
  });
  for (const id of previousCalls) problems.push(`end: tool_use ${id} unanswered`);
  return problems;
}
