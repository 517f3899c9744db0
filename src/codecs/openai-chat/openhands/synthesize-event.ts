import type { Message } from '../../../model/message.js';
import { messageText, toolCallsOf, toolResultsOf, toolResultText } from '../../../model/message-helpers.js';
import { argumentsValue } from '../tool-calls.js';

/**
 * Fresh OpenHands events for a message that was not read from one (a summary condense inserted, a message from
 * another format): message actions for text, one action per tool call carrying a minimal model response, one
 * observation per tool result. They read back as the same conversation; OpenHands-specific fields (`args` of
 * an `edit`, observation `extras`) are only as good as the tool arguments allow.
 */
export function synthesizeEvents(message: Message): unknown[] {
  const text = messageText(message);
  switch (message.role) {
    case 'system':
      return [{ source: 'agent', action: 'system', message: text, args: { content: text } }];
    case 'user':
      return [messageAction('user', text), ...observations(message)];
    case 'assistant': {
      const calls = toolCallsOf(message);
      if (calls.length === 0) return [messageAction('agent', text)];
      const first = calls[0]?.id ?? 'call';
      const response = {
        id: `condense-${first}`,
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: text === '' ? null : text,
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            },
          },
        ],
      };
      return calls.map((call, index) => ({
        source: 'agent',
        action: call.name,
        message: index === 0 ? text : '',
        args: argumentsValue(call.arguments),
        tool_call_metadata: {
          function_name: call.name,
          tool_call_id: call.id,
          model_response: response,
          total_calls_in_response: calls.length,
        },
      }));
    }
    case 'tool':
      return [...observations(message), ...(text === '' ? [] : [messageAction('user', text)])];
  }
}

function messageAction(source: 'user' | 'agent', text: string): unknown {
  return {
    source,
    action: 'message',
    message: text,
    args: { content: text, image_urls: null, wait_for_response: source === 'agent' },
  };
}

function observations(message: Message): unknown[] {
  return toolResultsOf(message).map((result) => ({
    source: 'agent',
    observation: result.name ?? 'tool',
    message: '',
    content: toolResultText(result.content),
    extras: {},
    tool_call_metadata: { function_name: result.name ?? '', tool_call_id: result.callId },
  }));
}
