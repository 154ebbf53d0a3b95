/**
 * JSON.stringify for a preview: stops once `max` characters are written, so a frame of megabytes
 * costs no more to preview than a small one. The text is the start of JSON.stringify's output,
 * with "…" when it was cut.
 */
export function boundedJson(value: unknown, max: number): string {
  const parts: string[] = [];
  let length = 0;
  const emit = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length > max;
  };

  function walk(item: unknown): boolean {
    if (typeof item === 'string') {
      // Escaping works character by character, so the escape of a prefix is a prefix of the escape.
      const room = max - length + 1;
      return emit(item.length > room ? JSON.stringify(item.slice(0, room)).slice(0, -1) : JSON.stringify(item));
    }
    if (item === null || typeof item !== 'object') return emit(JSON.stringify(item) ?? 'null');
    if (Array.isArray(item)) {
      if (emit('[')) return true;
      for (let index = 0; index < item.length; index++) {
        if ((index > 0 && emit(',')) || walk(item[index] === undefined ? null : item[index])) return true;
      }
      return emit(']');
    }
    if (emit('{')) return true;
    let first = true;
    for (const [key, child] of Object.entries(item)) {
      if (child === undefined || typeof child === 'function') continue;
      if ((!first && emit(',')) || emit(`${JSON.stringify(key)}:`) || walk(child)) return true;
      first = false;
    }
    return emit('}');
  }

  walk(value);
  const text = parts.join('');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
