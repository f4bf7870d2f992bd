/**
 * The JSON answer a CallToolResult carries. Results carry the answer once, as the JSON text of
 * their only content item (WebMCP hosts serialise the whole result for the agent, so a second copy
 * would be read twice), so tests read it from there.
 */
export function answerOf(result: { content: { type: string; text: string }[] }): unknown {
  const [first] = result.content;
  if (!first || first.type !== 'text') throw new Error(`no text content in ${JSON.stringify(result)}`);
  return JSON.parse(first.text);
}
