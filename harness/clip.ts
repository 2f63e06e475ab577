/** Console lines: a reason on one line (the whole reason is in the report). */
/** A reason on one console line: a stderr tail already quoted earlier in it is not quoted again; at most `max` characters (the whole reason is in the report). */
export function clipReason(reason: string, max = 360): string {
  const parts = reason.split('; ');
  const once = parts.map((part, i) => (i === 0 ? part : part.replace(/ \((?:stderr: )?([^()]*)\)/g, (whole, text: string) => {
    const tail = (text.split(' | ').pop() ?? text).trim();
    return tail !== '' && parts.slice(0, i).join('; ').includes(tail) ? '' : whole;
  }))).join('; ');
  return once.length <= max ? once : `${once.slice(0, max - 1)}…`;
}
