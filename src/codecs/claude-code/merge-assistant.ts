import { asMessageRecord, hasToolResults, type MessageRecord, responseIdOf } from './records.js';

/** The records (file indexes, in order) that make one message. */
export type RecordGroup = number[];

/**
 * Groups message records into messages. Claude Code writes one assistant record per content block of an API
 * response, all with the same `message.id`, and tool results (plus progress and hook records) can sit between
 * them. So an assistant record joins the open response with its `message.id`; the response closes at a user
 * prompt (a user record without tool results) or at an assistant record of another response. Every user record
 * is a message of its own. Groups come out in the order of their first record.
 */
export function groupRecords(records: readonly unknown[], order: readonly number[]): RecordGroup[] {
  const groups: RecordGroup[] = [];
  let open: { id: string; group: RecordGroup } | undefined;
  for (const index of order) {
    const record = asMessageRecord(records[index]) as MessageRecord;
    const responseId = responseIdOf(record);
    if (record.type === 'assistant') {
      if (responseId !== undefined && open?.id === responseId) {
        open.group.push(index);
        continue;
      }
      const group = [index];
      groups.push(group);
      open = responseId === undefined ? undefined : { id: responseId, group };
      continue;
    }
    groups.push([index]);
    if (!hasToolResults(record)) open = undefined;
  }
  return groups;
}
