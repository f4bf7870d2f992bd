/**
 * The JSON answer a CallToolResult carries. Results carry the answer once, as the JSON text of
 * their only content item (DESIGN section 4), so tests read it from there.
 */
export function answerOf(result: { content: { type: string; text: string }[] }): unknown {
  const [first] = result.content;
  if (!first || first.type !== 'text') throw new Error(`no text content in ${JSON.stringify(result)}`);
  return JSON.parse(first.text);
}
