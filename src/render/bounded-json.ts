/**
 * JSON.stringify for a preview: stops once `max` characters are written, so a frame of megabytes
 * costs no more to preview than a small one. The text is the start of JSON.stringify's output,
 * with "…" when it was cut. `omit` names keys of the top-level object to leave out (as if they
 * were not there), so a caller need not copy the object without them.
 *
 * It runs for every frame of wire.log and the live view: the text is built as it goes, with no
 * list of parts and no copies of the objects it walks.
 */
export function boundedJson(value: unknown, max: number, omit?: ReadonlySet<string>): string {
  let text = '';

  /** Appends `piece`; true once the text is past `max` (the walk stops). */
  const emit = (piece: string): boolean => {
    text += piece;
    return text.length > max;
  };

  function walk(item: unknown, skip: ReadonlySet<string> | undefined): boolean {
    if (typeof item === 'string') {
      // Escaping works character by character, so the escape of a prefix is a prefix of the escape.
      const room = max - text.length + 1;
      return emit(item.length > room ? JSON.stringify(item.slice(0, room)).slice(0, -1) : JSON.stringify(item));
    }
    if (item === null || typeof item !== 'object') return emit(JSON.stringify(item) ?? 'null');
    if (Array.isArray(item)) {
      if (emit('[')) return true;
      for (let index = 0; index < item.length; index++) {
        if ((index > 0 && emit(',')) || walk(item[index] === undefined ? null : item[index], undefined)) return true;
      }
      return emit(']');
    }
    if (emit('{')) return true;
    let first = true;
    const keys = Object.keys(item);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const child = (item as Record<string, unknown>)[key];
      if (child === undefined || typeof child === 'function' || skip?.has(key)) continue;
      if ((!first && emit(',')) || emit(`${JSON.stringify(key)}:`) || walk(child, undefined)) return true;
      first = false;
    }
    return emit('}');
  }

  walk(value, omit);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Whether `value` is an object with no key but those in `omit` (its preview would be "{}"). */
export function emptyBut(value: object, omit: ReadonlySet<string> | undefined): boolean {
  for (const key of Object.keys(value)) if (!omit?.has(key)) return false;
  return true;
}
