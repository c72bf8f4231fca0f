/** An answer's text as JSON, or undefined when it is empty or not JSON (a proxy's page, a cut body): the caller keeps the text. */
export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
